// A flat array passed where a helper takes an array of arrays
static double at(int m, const double A[][3], int i) { return A[i][m]; }
#pragma adsoac grad
double f(int n, const double *x) {
  double t = 0.0;
#pragma adsoac reduce(+: t)
  for (int i = 0; i < n; i++) t += at(1, x, i);
  return t;
}
