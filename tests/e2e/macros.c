// Macros as legacy kernels use them: a project header (#include "..."), function-like macros
// for indexing and arithmetic, object-like constants, a macro standing for a type, nested
// macros, macros in loop bounds, and a configuration chosen with #if/#ifdef.
// e2e: sizes n=0,1,2,7 m=1,3,4,3
// e2e: array A[n*m] range(-1,1)
// e2e: array x[m] range(-1,1)
// e2e: array y[n*m] range(-1,1)
#include <math.h>
#include "kernel_defs.h"

#define USE_TANH 1
#ifdef USE_TANH
#define ACT(v) tanh(v)
#else
#define ACT(v) (v)
#endif
#define NTERMS 2
#if NTERMS > 4
#error "too many terms"
#endif
#define real double
#define ROW(i) IDX(i, 0, m)
#define NSQ(v) (SQR(v) * SCALE)

#pragma adsoac grad
double macros(int n, int m, const double *A, const double *x, double *y) {
  real s = 0.0;
#pragma adsoac reduce(+: s)
  for (int k = 0; k < n * m; k++) {
    int i = k / m, j = k % m;
    real t = A[ROW(i) + j] * x[j] + NTERMS * x[IDX(0, m - 1, m)];
    y[k] = ACT(t);
    s += NSQ(y[k] - A[IDX(i, m - 1, m)]);
  }
  return s;
}
