// language.md 11: lastprivate is not read yet: refused, naming the clause
#pragma adsoac grad
double f(int n, const double *x, double *y) {
  double t = 0.0;
#pragma omp parallel for lastprivate(t)
  for (int i = 0; i < n; i++) {
    t = x[i] * 2.0;
    y[i] = t;
  }
  return t;
}
