// language.md 11: lastprivate(t) where the loop's last iteration may not assign t (OpenMP
// leaves it unspecified then): refused
#pragma adsoac grad
double f(int n, const double *x, double *y) {
  double t = 0.0;
#pragma omp parallel for lastprivate(t)
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0) t = x[i] * 2.0;
    y[i] = x[i];
  }
  return t;
}
