// a scan inside a sequential loop: refused
#pragma adsoac grad
double steps(int n, int t, const double *x, double *y) {
  double s = 0.0;
  for (int k = 0; k < t; k++) {
    double acc = 0.0;
#pragma adsoac scan(+: acc)
    for (int i = 0; i < n; i++) {
      acc += x[i];
      y[i] = acc;
    }
    s += acc;
  }
  return s;
}
