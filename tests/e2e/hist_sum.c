// hist(+): each value's adjoint is its bin's, the initial contents' adjoint passes through;
// updates whose bin is outside [lo, lo+len) are skipped (negative bins and bins past the end
// are in every input); empty bins; bin counts 1, small and larger than n; a hist with an
// offset section, with elementwise work and a reduction in the same loop, the guarded form
// of language.md §3, float; n = 0, 1 and odd sizes.  Plain C would update out-of-section
// bins, so the reference (compiled with ADSOAC_E2E_REFERENCE) guards them; adsoac sees the
// unguarded updates and must skip them.
// e2e: sizes n=0,1,2,7,33,100
// e2e: func hsum
// e2e: int k = 5
// e2e: array bin[n] range(-2,8)
// e2e: array w[n] range(-1,1)
// e2e: array h[k] range(-1,1)
// e2e: func hsum_one
// e2e: array bin[n] range(-1,2)
// e2e: array w[n] range(-1,1)
// e2e: array h[1] range(-1,1)
// e2e: func hsum_wide
// e2e: int k = 2 * n + 3
// e2e: array bin[n] range(-3,300)
// e2e: array w[n] range(-1,1)
// e2e: array h[k] range(-1,1)
// e2e: func hist_mixed
// e2e: int k = 6
// e2e: scalar a range(0.5,1.5)
// e2e: array bin[n] range(-1,12)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array h[k+3] range(-1,1)
// e2e: func hsum_guarded_f
// e2e: int k = 4
// e2e: array bin[n] range(-3,7)
// e2e: array w[n] range(-1,1)
// e2e: array h[k] range(-1,1)
#include <math.h>

#pragma adsoac grad
void hsum(int n, int k, const int *bin, const double *w, double *h) {
#pragma adsoac hist(+: h[0:k])
  for (int i = 0; i < n; i++)
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 0 && bin[i] < k)
#endif
      h[bin[i]] += w[i] * w[i];
}

// a single bin
#pragma adsoac grad
void hsum_one(int n, const int *bin, const double *w, double *h) {
#pragma adsoac hist(+: h[0:1])
  for (int i = 0; i < n; i++)
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] == 0)
#endif
      h[bin[i]] = h[bin[i]] + sin(w[i]);
}

// more bins than updates: most stay empty
#pragma adsoac grad
void hsum_wide(int n, int k, const int *bin, const double *w, double *h) {
#pragma adsoac hist(+: h[0:k])
  for (int i = 0; i < n; i++)
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] % (k + 5) >= 0 && bin[i] % (k + 5) < k)
#endif
      h[bin[i] % (k + 5)] += exp(w[i]);
}

// the section h[3 : 3+k], a map and a reduction beside the histogram
#pragma adsoac grad
double hist_mixed(int n, int k, double a, const int *bin, const double *x, double *y, double *h) {
  double s = 0.0;
#pragma adsoac hist(+: h[3:k]) reduce(+: s)
  for (int i = 0; i < n; i++) {
    double v = a * x[i];
    y[i] = tanh(v);
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 3 && bin[i] < 3 + k)
#endif
      h[bin[i]] += v * v;
    s += v;
  }
  return s;
}

// the guard a program writes so that C agrees (language.md §3)
#pragma adsoac grad
void hsum_guarded_f(int n, int k, const int *bin, const float *w, float *h) {
#pragma adsoac hist(+: h[0:k])
  for (int i = 0; i < n; i++)
    if (bin[i] >= 0 && bin[i] < k) h[bin[i]] += w[i] * 2.0f;
}
