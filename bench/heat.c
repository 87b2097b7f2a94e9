// heat: the 1-D heat-diffusion stencil over time steps (language.md §5): a plain
// sequential loop over the steps around two maps, the new values written to tmp and
// copied back into u (ping-pong by copying); u[0], u[n-1] are fixed boundary values.
// Both u and tmp are written: heat_vjp takes the seeds of their final contents in
// u_bar, tmp_bar and leaves the adjoints of their initial contents there (tmp[1..n-2]
// is overwritten before it is read: 0; tmp[0], tmp[n-1] are never touched: the seed).
// adsoac saves, per step, what the step overwrites (one state per iteration).
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed heat_seq) and through adsoac (heat, heat_vjp, heat_jvp).

#pragma adsoac grad
void heat(int n, int steps, double k, double *u, double *tmp) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
}
