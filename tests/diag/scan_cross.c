// one scan adding values computed from another scan of the same loop (translated in one
// pass: wrong results) is refused
#pragma adsoac grad
void xscan(int n, const double *x, double *y) {
  double a = 0.0, b = 0.0;
#pragma adsoac scan(+: a) scan(+: b)
  for (int i = 0; i < n; i++) {
    a += x[i];
    b += a * x[i];
    y[i] = b;
  }
}
