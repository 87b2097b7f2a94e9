// A 1-D heat-diffusion stencil over time steps (language.md §5): a sequential loop around two
// maps, the new values written to tmp and copied back into u (ping-pong by copying).  The
// reverse sweep restores u and tmp iteration by iteration from checkpoints.
// e2e: sizes n=0,1,2,3,7,12 steps=0,1,2,5,9,40
// e2e: scalar k range(0.05,0.45)
// e2e: array u[n] range(-1,1)
// e2e: array tmp[n] range(-1,1)
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
