// tests/consumer/energy.c: an annotated kernel, translated by adsoac_add_gradient: a chain of
// springs relaxed over a few time steps, then its energy.
#include <math.h>

#include "energy.h"

#pragma adsoac grad
double energy(int n, int steps, double k, double *x, double *tmp) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      tmp[i] = x[i] + SCALE * k * (x[i - 1] - 2.0 * x[i] + x[i + 1]);
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      x[i] = tmp[i];
  }
  double e = 0.0;
#pragma adsoac reduce(+: e)
  for (int i = 0; i < n - 1; i++)
    e += SPRING(x[i + 1] - x[i]) + 0.1 * sin(x[i]);
  return e;
}
