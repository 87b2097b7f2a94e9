// language.md 11: private(...) of an array is not read yet: refused, with the local array
// that says the same
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  double t[3];
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    t[0] = x[i];
    y[i] = t[0] * 2.0;
  }
}
