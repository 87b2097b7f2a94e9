// language.md 11: collapse(2) over loops that are not perfectly nested is refused
#pragma adsoac grad
void f(int n, int m, const double *x, double *y) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++) {
    y[i * m] = x[i];
    for (int j = 1; j < m; j++) y[i * m + j] = x[i] * j;
  }
}
