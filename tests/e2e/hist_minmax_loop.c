// hist(max) and hist(min) whose iterations run a loop of their own before the update: on the
// C target f_vjp's run of the loop records each bin's winner (README, Design: hist), in a
// team even where the bins are too many for the threads' copies (e2e.nofuse builds with
// ADSOAC_PRIVATE_BINS=4: then every update goes through the critical section), with ties
// across iterations and threads and with the initial contents (values from a small set);
// bins -1 and 6 lie outside the section (skipped: the reference guards them).
// e2e: sizes n=0,1,7,33,200
// e2e: seeds 3
// e2e: int nb = 6
// e2e: array bin[n] range(-1,7)
// e2e: array x[3*n] range(-1,1) fill(floor(r * 3.0) / 4.0)
// e2e: array h[6] range(-1,1) fill(i == 2 ? 0.5 : r)
#include <math.h>

#pragma adsoac grad
void rowmax(int n, int nb, const int *bin, const double *x, double *h) {
#pragma adsoac hist(max: h[0:nb])
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < 3; j++)
      s += x[3 * i + j];
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 0 && bin[i] < nb)
#endif
      if (s > h[bin[i]]) h[bin[i]] = s;
  }
}

#pragma adsoac grad
void rowmin(int n, int nb, const int *bin, const double *x, double *h) {
#pragma adsoac hist(min: h[0:nb])
  for (int i = 0; i < n; i++) {
    double s = 1.0;
    for (int j = 0; j < 3; j++)
      s = s * 0.5 + x[3 * i + j];
#ifdef ADSOAC_E2E_REFERENCE
    if (bin[i] >= 0 && bin[i] < nb)
#endif
      h[bin[i]] = fmin(h[bin[i]], s);
  }
}
