// language.md 11: lastprivate with collapse(2) is not read yet: refused
#pragma adsoac grad
double f(int n, int m, const double *x, double *y) {
  double t = 0.0;
#pragma omp parallel for collapse(2) lastprivate(t)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      t = x[i * m + j] * 2.0;
      y[i * m + j] = t;
    }
  return t;
}
