// examples/heat/heat.c: 1-D heat diffusion over many time steps, as legacy C annotated for
// adsoac, with strip-mined checkpointing of the time loop.
//
// u[n] is a temperature profile with fixed ends u[0], u[n-1]; each of the `steps` explicit
// Euler steps (stable for 0 < k <= 0.5) computes
//   tmp[i] = u[i] + k * (u[i-1] - 2 u[i] + u[i+1]),   i = 1 .. n-2,
// into a scratch array and copies it back into u (ping-pong by copying).  The function
// returns the misfit 0.5 * sum_i (u_final[i] - obs[i])^2 against an observed profile obs:
// its gradient w.r.t. the initial profile and the diffusivity k is what an inverse problem
// (recover the initial temperature or the material constant) needs.
//
// Annotations:
//   - grad wrt(k): of the read-only parameters only k is active (obs is data); u and tmp
//     are written, hence always active (language.md 2).
//   - stripmine(2) on the time loop, a plain sequential loop: the reverse sweep needs every
//     step's u; instead of saving all `steps` of them adsoac keeps about 2 * sqrt(steps)
//     and recomputes the others (one extra forward pass, language.md 5).
//   - map over i for the stencil and map over i for the copy-back: the iterations of each
//     are independent (the stencil reads u, writes tmp; the copy reads tmp, writes u).
//   - reduce(+: misfit) over i for the final misfit.
// f_vjp (heat_vjp) returns the misfit, adds ret_bar * d misfit / dk into *k_bar, and turns
// the seeds in u_bar, tmp_bar (adjoints of the final u, tmp) into those of the initial u, tmp.
#pragma adsoac grad wrt(k)
double heat(int n, int steps, double k, double *u, double *tmp, const double *obs) {
#pragma adsoac stripmine(2)
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
  double misfit = 0.0;
#pragma adsoac reduce(+: misfit)
  for (int i = 0; i < n; i++)
    misfit += 0.5 * (u[i] - obs[i]) * (u[i] - obs[i]);
  return misfit;
}
