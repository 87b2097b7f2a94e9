// csr.c: a sparse matrix-vector product in compressed sparse row (CSR) form, y = A x, and
// the least-squares residual loss 0.5 * ||A x - b||^2.
//
// Row i of A holds the entries val[j] at columns col[j] for j in [rowptr[i], rowptr[i+1])
// (empty rows allowed, repeated columns allowed).  Two annotated loops:
//   - `map` over rows: each row writes only its own y[i]; inside, the loop over the row's
//     entries is a plain sequential loop (its bounds come from rowptr, its reads of x go
//     through col: a gather), run per row;
//   - `reduce(+: loss)` over rows: the squared residual.
// rowptr and col are integer arrays: never active.
//
// `grad wrt(val, x)`: b is data.  adsoac generates
//   double csr(int nrows, const int *rowptr, const int *col, const double *val,
//              const double *x, const double *b, double *y);
//   double csr_vjp(int nrows, const int *rowptr, const int *col, const double *val,
//                  double *val_bar, const double *x, double *x_bar, const double *b,
//                  double *y, double *y_bar, double ret_bar);
//   double csr_jvp(int nrows, const int *rowptr, const int *col, const double *val,
//                  const double *val_dot, const double *x, const double *x_dot,
//                  const double *b, double *y, double *y_dot, double *ret_dot);
// csr_vjp with ret_bar = 1 and y_bar = 0 adds d loss / d val[j] = r[i] * x[col[j]] (r = y - b,
// row i holding entry j) to val_bar[j] and d loss / d x = A^T r to x_bar (a scatter: every
// row that reads x[c] adds to x_bar[c]).  With ret_bar = 0 and a seed y_bar it gives the
// plain transposed product: x_bar += A^T y_bar, val_bar[j] += y_bar[i] * x[col[j]].

#pragma adsoac grad wrt(val, x)
double csr(int nrows, const int *rowptr, const int *col, const double *val, const double *x,
           const double *b, double *y) {
#pragma adsoac map
  for (int i = 0; i < nrows; i++) {
    double s = 0.0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      s += val[j] * x[col[j]];
    y[i] = s;
  }

  double loss = 0.0;
#pragma adsoac reduce(+: loss)
  for (int i = 0; i < nrows; i++) {
    double r = y[i] - b[i];
    loss += 0.5 * r * r;
  }
  return loss;
}
