// Affine indices (issue 4's index analysis): writes at 2*i + 1 and i + k, a reversed read
// x[n - 1 - i] (one injective index: plain adjoint updates), two reads x[2*j] and x[2*j + 1]
// of one array at different indices (disjoint, issue 18: plain adjoint updates; with x[2*i]
// and x[n - 1 - i] in the first loop, atomic ones), an index through a cast, an
// in-place update after an earlier loop wrote the array at other indices.
// e2e: sizes n=1,2,5,9 m=0,1,2,4
// e2e: int k = 3
// e2e: array x[2*n+2] range(-1,1)
// e2e: array z[2*n+2] range(-1,1)
// e2e: array w[n+3] range(-1,1)
#include <math.h>

#pragma adsoac grad
void strided(int n, int m, int k, const double *x, double *z, double *w) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    z[2 * i + 1] = x[n - 1 - i] * x[n - 1 - i];
    w[i + k] = sin(x[(long)(2 * i)]) + x[2 * i + 1];
  }
#pragma adsoac map
  for (int j = 0; j < m; j++)
    z[2 * j] = x[2 * j] * x[2 * j + 1];
#pragma adsoac map
  for (int i = 0; i < n; i++)
    w[i] += x[n - 1 - i] * x[n - 1 - i];
}
