#pragma adsoac grad
double f(int n, const double *x, double *y) {
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += x[i];
  double m = s / n;
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = x[i] - m;
  return m;
}
