// The hist rules' IR: + (a gather of the bins' adjoints, a tangent histogram), max (the
// sections before and after, a pass finding each bin's winner), * (zero counts and nonzero
// products per bin), and a declared operator without an inverse (the general rule: updates
// sorted by bin, segmented scans from both ends).
#include <math.h>

#pragma adsoac operator neutral(-INFINITY) commutative
static double lse(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}

#pragma adsoac grad
void hists(int n, int k, const int *bin, const double *x, double *hs, double *hm, double *hp,
           double *hl) {
#pragma adsoac hist(+: hs[0:k]) hist(max: hm[0:k]) hist(*: hp[0:k]) hist(lse: hl[0:k])
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
    hs[bin[i]] += v;
    if (v > hm[bin[i]]) hm[bin[i]] = v;
    hp[bin[i]] *= v;
    hl[bin[i]] = lse(hl[bin[i]], v);
  }
}
