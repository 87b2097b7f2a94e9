#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = x[i];
    double t = 0;
    for (int k = 0; k < 3; k++) {
      t = t + 1;
      y[i] = x[i] * t;
    }
    y[i] = y[i] * t;
  }
}
