#pragma adsoac grad
void f(int n, const double *x, double *h) {
#pragma adsoac hist(+: h[0:8])
  for (int i = 0; i < n; i++)
    h[x[i]] += 1.0;
}
