// language.md 11: '#pragma omp scan' belongs in a loop with reduction(inscan, op: v); in one
// without, it is refused
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  double s = 0.0;
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; i++) {
    s += x[i];
#pragma omp scan inclusive(s)
    y[i] = x[i];
  }
}
