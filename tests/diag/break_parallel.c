#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    if (x[i] < 0) break;
    y[i] = x[i];
  }
}
