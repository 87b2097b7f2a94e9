#pragma adsoac grad
void cumsum(int n, const double *x, double *y) {
  double s = 0.0;
#pragma adsoac scan(+: s)
  for (int i = 0; i < n; i++) {
    s += x[i];
    y[i] = s;
  }
}
