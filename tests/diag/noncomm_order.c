#pragma adsoac operator neutral(0.0)
static double rsum(double a, double b) { return 0.5 * a + b; }
#pragma adsoac grad
double f(int n, const double *x) {
  double s = 0;
#pragma adsoac reduce(rsum: s)
  for (int i = 0; i < n; i++)
    s = rsum(x[i], s);
  return s;
}
