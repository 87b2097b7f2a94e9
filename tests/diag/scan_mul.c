// scan(*) is read and lowered, but its derivatives are not built yet: refused
#pragma adsoac grad
double cumprod(int n, const double *x, double *y) {
  double p = 1.0;
#pragma adsoac scan(*: p)
  for (int i = 0; i < n; i++) {
    p *= x[i];
    y[i] = p;
  }
  return p;
}
