// hist(max) and hist(min) with two updates of one bin in one iteration (issue 16): the bin's
// adjoint goes to one update only, the earliest that attains the final value (language.md §7:
// the initial contents first, then the earliest iteration, then the earlier update within
// it). twice: two different values; same: the same update written twice (a tie within the
// iteration); ties: values from a small set, so bins tie across iterations and with their
// initial contents; mixed: an update under a branch and one outside the section.
// e2e: sizes n=0,1,2,7,33
// e2e: seeds 3
// e2e: int nb = 4
// e2e: array bin[n] range(0,4)
// e2e: array v[n] range(-1,1)
// e2e: array w[n] range(-1,1)
// e2e: array h[4] range(-1,1)
// e2e: func ties
// e2e: array v[n] range(-1,1) fill(floor(r * 3.0) / 2.0)
// e2e: array w[n] range(-1,1) fill(floor(r * 3.0) / 2.0)
// e2e: array h[4] range(-1,1) fill(floor(r * 3.0) / 2.0)
// e2e: func mixed
// e2e: array bin[n] range(-1,5)
#include <math.h>

#pragma adsoac grad
void twice(int n, int nb, const int *bin, const double *v, const double *w, double *h) {
#pragma adsoac hist(max: h[0:nb])
  for (int i = 0; i < n; i++) {
    h[bin[i]] = fmax(h[bin[i]], v[i]);
    h[bin[i]] = fmax(h[bin[i]], w[i]);
  }
}

#pragma adsoac grad
void same(int n, int nb, const int *bin, const double *v, const double *w, double *h) {
#pragma adsoac hist(min: h[0:nb])
  for (int i = 0; i < n; i++) {
    h[bin[i]] = fmin(h[bin[i]], v[i] * w[i]);
    h[bin[i]] = fmin(h[bin[i]], v[i] * w[i]);
  }
}

#pragma adsoac grad
void ties(int n, int nb, const int *bin, const double *v, const double *w, double *h) {
#pragma adsoac hist(max: h[0:nb])
  for (int i = 0; i < n; i++) {
    if (w[i] > h[bin[i]]) h[bin[i]] = w[i];
    h[bin[i]] = fmax(h[bin[i]], v[i]);
    h[bin[i]] = fmax(v[i] + w[i], h[bin[i]]);
  }
}

#pragma adsoac grad
void mixed(int n, int nb, const int *bin, const double *v, const double *w, double *h) {
#pragma adsoac hist(min: h[0:nb])
  for (int i = 0; i < n; i++) {
    int b = bin[i];
    if (v[i] > 0.0) {
      if (b >= 0 && b < nb) h[b] = fmin(h[b], v[i] * v[i]);
    }
#ifdef ADSOAC_E2E_REFERENCE
    if (b >= 0 && b < nb)
#endif
    h[b] = fmin(h[b], w[i]);
    if (b >= 0 && b < nb) h[b] = fmin(h[b], 0.5 * v[i] + w[i]);
  }
}
