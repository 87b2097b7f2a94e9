// language.md 11: reduction(inscan, ...) with #pragma omp scan is not read yet: refused, with
// the adsoac pragma that says the same
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  double s = 0.0;
#pragma omp parallel for reduction(inscan, +: s)
  for (int i = 0; i < n; i++) {
    s += x[i];
#pragma omp scan inclusive(s)
    y[i] = s;
  }
}
