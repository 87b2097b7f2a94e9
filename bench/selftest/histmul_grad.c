// Hand-made stand-in for `adsoac --target=c bench/histmul.c -o histmul_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline without
// the translator. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output for a hist(*) through the chain rule of the sequential loop:
// a forward sweep that stores each bin's content before every update, and a reverse
// sweep through the updates' Jacobians (x_bar[i] += hb * before_i, hb *= x[i]; no
// division, so exact with zeros). The sweeps run sequentially here (the stand-in checks
// the pipeline, not speed). Updates outside [0, k) are skipped.
#include <stdlib.h>

static int in_range(int b, int k) { return b >= 0 && b < k; }

void hprod(int n, int k, const int *restrict bin, const double *restrict x,
           double *restrict h) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    if (in_range(bin[i], k)) {
#pragma omp atomic
      h[bin[i]] *= x[i];
    }
}

void hprod_vjp(int n, int k, const int *restrict bin, const double *restrict x,
               double *restrict x_bar, double *restrict h, double *restrict h_bar) {
  double *before = malloc((size_t)(n > 0 ? n : 1) * sizeof *before);
  for (int i = 0; i < n; i++)  // forward sweep
    if (in_range(bin[i], k)) {
      before[i] = h[bin[i]];
      h[bin[i]] *= x[i];
    }
  for (int i = n - 1; i >= 0; i--)  // reverse sweep
    if (in_range(bin[i], k)) {
      x_bar[i] += h_bar[bin[i]] * before[i];
      h_bar[bin[i]] *= x[i];
    }
  free(before);
}

void hprod_jvp(int n, int k, const int *restrict bin, const double *restrict x,
               const double *restrict x_dot, double *restrict h,
               double *restrict h_dot) {
  for (int i = 0; i < n; i++)
    if (in_range(bin[i], k)) {
      int b = bin[i];
      h_dot[b] = h_dot[b] * x[i] + h[b] * x_dot[i];
      h[b] *= x[i];
    }
}
