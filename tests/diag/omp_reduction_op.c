// language.md 11: an OpenMP reduction operator adsoac does not read (&, |, ^, &&, ||, a
// declared one) is refused, naming it
#pragma adsoac grad
double f(int n, const double *x) {
  int any = 0;
  double s = 0.0;
#pragma omp parallel for reduction(+: s) reduction(||: any)
  for (int i = 0; i < n; i++) {
    s += x[i];
    any = any || x[i] > 0;
  }
  return s * any;
}
