#pragma adsoac grad
double f(int n, const double *x) {
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s = x[i] - s;
  return s;
}
