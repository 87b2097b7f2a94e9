// Scalars declared at the top of the function and assigned first in each iteration of a
// parallel loop (private to the iteration, as OpenMP's private), as serial codes reuse them:
// a row's dot product in a map (sum, d), the same scalar as a reduction in a later loop and
// as a temporary in a reduce's body, reassigned after the loop, in a time loop.
// e2e: sizes n=0,1,3,6 m=1,2,3,4
// e2e: array A[n*m] range(-1,1)
// e2e: array x[m] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array out[2] range(-1,1)
#include <math.h>

#pragma adsoac grad
void rows(int n, int m, const double *A, const double *x, double *y, double *out) {
  int i, j, t;
  double sum, d, scale;
  for (t = 0; t < 2; t++) {
#pragma adsoac map
    for (i = 0; i < n; i++) {
      sum = 0.0;
      scale = 1.0 + 0.5 * t;
      for (j = 0; j < m; j++) sum = sum + A[i * m + j] * x[j] * scale;
      d = sum * sum;
      y[i] = sin(d) + y[i] * 0.5;
    }
  }
  sum = 0.0;
#pragma adsoac reduce(+: sum)
  for (i = 0; i < n; i++) {
    d = y[i] - 0.25;
    sum = sum + d * d;
  }
  out[0] = sqrt(sum + 1.0);
  d = out[0] * 2.0;
  out[1] = d;
}
