// A CSR sparse matrix-vector product as legacy C writes it, with pragmas added: each row read
// through pointer views of its column indices and values (colidx + rowptr[i]), the row length
// from the row pointers, a local running sum; then the squared residual.

void spmv(int nrows, const int *rowptr, const int *colidx, const double *vals, const double *x,
          double *y) {
  int i, k;
#pragma adsoac map
  for (i = 0; i < nrows; i++) {
    const int *cols = colidx + rowptr[i];
    const double *v = vals + rowptr[i];
    int len = rowptr[i + 1] - rowptr[i];
    double sum = 0.0;
    for (k = 0; k < len; k++)
      sum += v[k] * x[cols[k]];
    y[i] = sum;
  }
}

#pragma adsoac grad
double csr_residual(int nrows, int ncols, const int *rowptr, const int *colidx,
                    const double *vals, const double *x, const double *b, double *y) {
  double r = 0.0;
  int i;
  spmv(nrows, rowptr, colidx, vals, x, y);
#pragma adsoac reduce(+: r)
  for (i = 0; i < nrows; i++)
    r += (y[i] - b[i]) * (y[i] - b[i]);
  return 0.5 * r + 0.0 * ncols;
}
