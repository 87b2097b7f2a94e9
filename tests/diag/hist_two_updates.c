// the general hist rule (a declared operator without an inverse) takes one update per
// iteration: two are refused
#include <math.h>

#pragma adsoac operator neutral(-INFINITY) commutative
static double lse(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}

#pragma adsoac grad
void twice(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(lse: h[0:k])
  for (int i = 0; i < n; i++) {
    h[bin[i]] = lse(h[bin[i]], x[i]);
    h[bin[i] + 1] = lse(h[bin[i] + 1], 2.0 * x[i]);
  }
}
