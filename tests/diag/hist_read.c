#pragma adsoac grad
void f(int n, const double *x, const int *bin, double *h, double *y) {
#pragma adsoac hist(+: h[0:8])
  for (int i = 0; i < n; i++) {
    h[bin[i]] += x[i];
    y[i] = h[bin[i]];
  }
}
