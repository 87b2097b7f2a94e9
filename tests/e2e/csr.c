// CSR sparse matrix-vector products (legacy C): a map over rows whose body runs a plain
// sequential loop over the row's entries, the bounds read from rowptr, and gathers x[col[j]].
// Row i has i % 4 entries (rows 0, 4, 8, ... are empty), so rowptr[i] is the closed form
// sum_{r<i} r % 4 = 6 * (i / 4) + q * (q - 1) / 2 with q = i % 4 and nnz = rowptr[n].
// Every third entry's column is 0, so x[0] is gathered by several rows (its adjoint
// accumulates); columns are otherwise random in [0, m), repeats included.
// e2e: sizes n=0,1,2,3,5,9,13 m=1,1,3,2,4,6,3
// e2e: int nnz = 6 * (n / 4) + (n % 4) * (n % 4 - 1) / 2
// e2e: array rowptr[n+1] fill(6 * (i / 4) + (i % 4) * (i % 4 - 1) / 2)
// e2e: array col[nnz] range(0,m) fill(i % 3 == 1 ? 0 : r)
// e2e: array val[nnz] range(-1,1)
// e2e: array x[m] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

// y = A x
#pragma adsoac grad
void spmv(int n, int m, const int *rowptr, const int *col, const double *val, const double *x,
          double *y) {
  (void)m; // the column count: the C idiom for an unused parameter is accepted
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      s += val[j] * x[col[j]];
    y[i] = s;
  }
}

// y <- tanh(y + A sin(x)): y is read and overwritten in place, x enters non-linearly
#pragma adsoac grad
void spmv_tanh(int n, int m, const int *rowptr, const int *col, const double *val,
               const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = y[i];
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      s += val[j] * sin(x[col[j]]);
    y[i] = tanh(s);
  }
}
