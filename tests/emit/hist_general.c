// The general rule of hist for a declared commutative operator without an inverse
// (log-sum-exp): on the C target two sequential passes over the updates in index order
// (each bin's running value forward, the fold of its later updates back); on CUDA the
// updates sorted by bin and segmented scans from both ends.
#include <math.h>

#pragma adsoac operator neutral(-INFINITY) commutative
static double lse(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}

#pragma adsoac grad
void hlse(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(lse: h[0:k])
  for (int i = 0; i < n; i++)
    h[bin[i]] = lse(h[bin[i]], 2.0 * x[i]);
}
