// Particle deposition (cloud-in-cell, 1-D) as a particle-in-cell code writes it with OpenMP:
// each particle adds its charge to its two nearest cells with `omp atomic`, then the field
// energy of the grid is a reduction; only `#pragma adsoac grad` added.
#include <math.h>

#define NCELL 64

#pragma adsoac grad
double deposit(int np, const double *x, const double *q, double rho[NCELL]) {
  const double dx = 1.0 / NCELL;
#pragma omp parallel for
  for (int k = 0; k < np; k++) {
    double s = x[k] / dx;
    int c = (int)floor(s);
    double f = s - c;
    int c0 = ((c % NCELL) + NCELL) % NCELL, c1 = (c0 + 1) % NCELL;
#pragma omp atomic
    rho[c0] += q[k] * (1.0 - f);
#pragma omp atomic
    rho[c1] += q[k] * f;
  }
  double e = 0.0;
#pragma omp parallel for reduction(+: e)
  for (int c = 0; c < NCELL; c++) e += 0.5 * rho[c] * rho[c] * dx;
  return e;
}
