// hist with *, min, max and a declared operator with an inverse: per bin, * gives each
// factor the product of the others (bins with no, one and two or more zeros: the initial
// contents count as a factor), min/max give the bin's adjoint to its winner (the initial
// contents if they attain the extremum, else the earliest update: ties in every input),
// the invertible rule for the declared operator; declared operators without an inverse by
// the general rule (the updates sorted by bin, segmented scans from both ends); out-of-section
// bins on both sides, empty bins, bins larger than n, n = 0, 1 and odd sizes, float and double.
// e2e: sizes n=0,1,2,7,33,100
// e2e: func hprod
// e2e: int k = 6
// e2e: array bin[n] range(-1,7)
// e2e: array x[n] range(0.7,1.3) fill(i % 9 == 4 || i == 13 ? 0.0 : r)
// e2e: array h[k] range(0.5,1.5) fill(i == 2 ? 0.0 : r)
// e2e: func hmax
// e2e: int k = 5
// e2e: array bin[n] range(-2,7)
// e2e: array x[n] range(-1,1) fill(i % 4 == 1 ? 0.5 : r)
// e2e: array h[k] range(-1,1) fill(i == 1 ? 0.5 : r)
// e2e: func hmin_f
// e2e: int k = 3
// e2e: array bin[n] range(-1,4)
// e2e: array x[n] range(-1,1)
// e2e: array h[k] range(-1,1)
// e2e: func hnorm
// e2e: int k = 4
// e2e: array bin[n] range(-1,5)
// e2e: array x[n] range(0.2,1.2)
// e2e: array h[k] range(0.5,1.5)
// e2e: func hsoft_general
// e2e: int k = n + 3
// e2e: array bin[n] range(-2,9)
// e2e: array x[n] range(-1,1)
// e2e: array h[k] range(-1,1)
// e2e: func hists4
// e2e: int k = 5
// e2e: array bin[n] range(0,5)
// e2e: array x[n] range(0.5,1.2)
// e2e: array hs[k] range(-1,1)
// e2e: array hm[k] range(-1,1)
// e2e: array hp[k] range(0.5,1.5)
// e2e: array hl[k] range(-1,1)
// e2e: func hbranch
// e2e: int k = 3
// e2e: array bin[n] range(0,3)
// e2e: array x[n] range(-1,1)
// e2e: array h[k] range(-1,1)
// e2e: func hsoft
// e2e: int k = 4
// e2e: array bin[n] range(-1,5)
// e2e: array x[n] range(-1,1)
// e2e: array h[k] range(-1,1)
#include <math.h>

static double lse_inv(double a, double b) { return a + log1p(-exp(b - a)); }

// log(exp(a) + exp(b)): commutative, inverted by lse_inv
#pragma adsoac operator neutral(-INFINITY) commutative inverse(lse_inv)
static double lse(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}

// sqrt(a^2 + b^2): associative and commutative, no inverse declared
#pragma adsoac operator neutral(0.0) commutative
static double norm2(double a, double b) { return sqrt(a * a + b * b); }

#pragma adsoac operator neutral(-INFINITY) commutative
static double lse_noinv(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}

#pragma adsoac grad
void hnorm(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(norm2: h[0:k])
  for (int i = 0; i < n; i++)
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 0 && bin[i] < k)
#endif
      h[bin[i]] = norm2(h[bin[i]], x[i] * (1.0 + x[i]));
}

#pragma adsoac grad
void hsoft_general(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(lse_noinv: h[0:k])
  for (int i = 0; i < n; i++) {
    int b = bin[i] % 7;
#ifdef ADSOAC_E2E_REFERENCE
    if (b >= 0 && b < k)
#endif
      h[b] = lse_noinv(h[b], sin(3.0 * x[i]));
  }
}

#pragma adsoac grad
void hprod(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(*: h[0:k])
  for (int i = 0; i < n; i++)
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 0 && bin[i] < k)
#endif
      h[bin[i]] *= x[i] + 0.25 * x[i] * x[i];
}

#pragma adsoac grad
void hmax(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(max: h[0:k])
  for (int i = 0; i < n; i++) {
    double v = x[i] * 2.0 - 0.5;
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 0 && bin[i] < k)
#endif
      if (v > h[bin[i]]) h[bin[i]] = v;
  }
}

#pragma adsoac grad
void hmin_f(int n, int k, const int *bin, const float *x, float *h) {
#pragma adsoac hist(min: h[0:k])
  for (int i = 0; i < n; i++)
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 0 && bin[i] < k)
#endif
      h[bin[i]] = fminf(h[bin[i]], sinf(x[i]));
}

#pragma adsoac grad
void hsoft(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(lse: h[0:k])
  for (int i = 0; i < n; i++)
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 0 && bin[i] < k)
#endif
      h[bin[i]] = lse(h[bin[i]], 2.0 * x[i]);
}

// four clauses in one loop (distributed into one loop each, fused back where they can be)
#pragma adsoac grad
void hists4(int n, int k, const int *bin, const double *x, double *hs, double *hm, double *hp,
            double *hl) {
#pragma adsoac hist(+: hs[0:k]) hist(max: hm[0:k]) hist(*: hp[0:k]) hist(lse_noinv: hl[0:k])
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
    hs[bin[i]] += v;
    if (v > hm[bin[i]]) hm[bin[i]] = v;
    hp[bin[i]] *= v;
    hl[bin[i]] = lse_noinv(hl[bin[i]], v);
  }
}

// the general rule with an update on each side of an if (one runs per iteration)
#pragma adsoac grad
void hbranch(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(lse_noinv: h[0:k])
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0)
      h[bin[i]] = lse_noinv(h[bin[i]], x[i] * x[i]);
    else
      h[bin[i]] = lse_noinv(h[bin[i]], -x[i]);
  }
}

// A max whose updates are computed with a free scalar and a local array: the reverse runs
// over the bins, each winner's iteration alone (ad/rev_hist.c hist_winners_only), and w gets
// its adjoint from the winners only; ties among the updates in every input.
// e2e: func hmax_pool
// e2e: int k = 4
// e2e: array bin[n] range(-1,5)
// e2e: array x[n] range(-1,1) fill(i % 5 == 2 ? 0.25 : r)
// e2e: scalar w range(0.5,1.5)
// e2e: array h[k] range(-1,1) fill(i == 3 ? 2.0 : r)
#pragma adsoac grad
void hmax_pool(int n, int k, double w, const int *bin, const double *x, double *h) {
#pragma adsoac hist(max: h[0:k])
  for (int i = 0; i < n; i++) {
    double t[2];
    t[0] = sin(x[i]) * w;
    t[1] = x[i] * x[i] + w;
    double v = t[0] + 0.5 * t[1];
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 0 && bin[i] < k)
#endif
      if (v > h[bin[i]]) h[bin[i]] = v;
  }
}
