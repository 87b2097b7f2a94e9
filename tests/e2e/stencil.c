// Stencil reads (an array read at several index expressions a*i + c): their adjoints are
// added without atomics, the first expression's in the reverse loop, the others' by one loop
// each afterwards.  Strided (a = 2, overlapping pairs), reads in branches, a 5-point stencil
// on a flattened grid (offsets +-1 and +-m).
// e2e: sizes n=0,1,2,5,9 m=1,2,3,3,4
// e2e: func pairs
// e2e: array x[2*n+1] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func branches
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func grid
// e2e: array u[m*m] range(-1,1)
// e2e: array v[m*m] range(-1,1)
#include <math.h>

#pragma adsoac grad
void pairs(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = x[2 * i] * x[2 * i + 1] + sin(x[2 * i + 2]) + y[i];
}

#pragma adsoac grad
void branches(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 1; i < n - 1; i++) {
    if (i % 2)
      y[i] = x[i + 1] * x[i + 1];
    else
      y[i] = x[i - 1] * x[i] + exp(x[i + 1]);
  }
}

#pragma adsoac grad
void grid(int m, const double *u, double *v) {
#pragma adsoac map
  for (int k = m; k < m * m - m; k++)
    v[k] = u[k - 1] + u[k + 1] + u[k - m] * u[k + m] - 4.0 * u[k];
}

// Stencil reads under ifs (x[i-1] only for i > 0): their adjoints stay in the reverse loop
// (atomic), since a later loop over every index would touch x_bar[-1] and x_bar[n].
// e2e: func guarded_reads
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#pragma adsoac grad
void guarded_reads(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = x[i] * x[i];
    if (i > 0) s += x[i - 1];
    if (i < n - 1) s += 2.0 * x[i + 1];
    y[i] = s;
  }
}
