// An array of arrays passed where a helper takes a flat array (a row, A[i], is one)
#define N 8
static double first(const double *x) { return x[0]; }
#pragma adsoac grad
double f(int n, const double A[N][N]) {
  double t = 0.0;
#pragma adsoac reduce(+: t)
  for (int i = 0; i < n; i++) t += first(A);
  return t;
}
