// language.md 11: lastprivate(conditional: t) (OpenMP 5: the value of the last iteration that
// assigned it) is not read yet: refused, naming the clause
#pragma adsoac grad
double f(int n, const double *x, double *y) {
  double t = 0.0;
#pragma omp parallel for lastprivate(conditional: t)
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0) t = x[i] * 2.0;
    y[i] = x[i];
  }
  return t;
}
