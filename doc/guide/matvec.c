#pragma adsoac grad
void matvec(int n, int m, const double *A, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = 0; j < m; j++)
      s += A[i * m + j] * x[j];
    y[i] = s;
  }
}
