// An explicit 2-D heat stencil as legacy C writes it, with pragmas added: a flat grid
// u[i*nx + j], a new grid computed from the old one in the interior, the boundary kept by a
// copy, memcpy of the new grid back into u between the time steps, a diffusion coefficient
// per cell; the final mean temperature.
#include <string.h>

#pragma adsoac grad
double heat2d(int nx, int ny, int steps, double *u, const double *kappa, double *unew) {
  int t, i, j;
  for (t = 0; t < steps; t++) {
    memcpy(unew, u, nx * ny * sizeof(double));
#pragma adsoac map
    for (i = 1; i < ny - 1; i++) {
      double *row = unew + i * nx;
      const double *up = u + (i - 1) * nx, *mid = u + i * nx, *down = u + (i + 1) * nx;
      for (j = 1; j < nx - 1; j++)
        row[j] = mid[j] + kappa[i * nx + j] *
                              (up[j] + down[j] + mid[j - 1] + mid[j + 1] - 4.0 * mid[j]);
    }
    memcpy(u, unew, nx * ny * sizeof(double));
  }
  double s = 0;
#pragma adsoac reduce(+: s)
  for (i = 0; i < nx * ny; i++)
    s += u[i];
  return s / (nx * ny);
}
