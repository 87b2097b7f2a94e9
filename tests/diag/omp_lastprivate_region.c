// language.md 11: lastprivate on '#pragma omp parallel' (OpenMP allows it on loops only)
#pragma adsoac grad
double f(int n, const double *x, double *y) {
  double t = 0.0;
#pragma omp parallel lastprivate(t)
  {
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = x[i] * 2.0;
  }
  return t;
}
