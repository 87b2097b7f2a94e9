// histlse: h[b] = log(exp(h[b]) + sum_{i: bin[i] = b} exp(x[i])), a histogram with the
// declared operator lse (log-sum-exp), commutative but WITHOUT an inverse: adsoac
// differentiates it with its sort-based general rule (updates sorted by bin, segmented
// exclusive scans from both ends).
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed hlse_seq) and through adsoac (hlse, hlse_vjp, hlse_jvp).
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
    h[bin[i]] = lse(h[bin[i]], x[i]);
}
