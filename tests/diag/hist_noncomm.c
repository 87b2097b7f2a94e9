#pragma adsoac operator neutral(0.0)
static double first(double a, double b) { return a + 0 * b; }
#pragma adsoac grad
void f(int n, const double *x, const int *bin, double *h) {
#pragma adsoac hist(first: h[0:8])
  for (int i = 0; i < n; i++)
    h[bin[i]] = first(h[bin[i]], x[i]);
}
