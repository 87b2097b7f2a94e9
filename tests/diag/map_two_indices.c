#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[2 * i] = x[i];
    y[2 * i + 1] = -x[i];
  }
}
