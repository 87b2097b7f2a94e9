// Hand-made stand-in for `adsoac --target=c bench/histmax.c -o histmax_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline without
// the translator. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output for a hist(max): a copy of the initial contents, the forward
// sweep, the winner of every bin (-1: the initial content if it attains the maximum,
// else the earliest update that does, language.md §7), then the adjoint: the seed of a
// bin to its winner, 0 left in h_bar where an update won. The forward sweep and the
// winner search run sequentially here (the stand-in checks the pipeline, not speed).
// Updates outside [0, k) are skipped.
#include <stdlib.h>
#include <string.h>

static int in_range(int b, int k) { return b >= 0 && b < k; }

void hmax(int n, int k, const int *restrict bin, const double *restrict x,
          double *restrict h) {
  for (int i = 0; i < n; i++)
    if (in_range(bin[i], k) && x[i] > h[bin[i]]) h[bin[i]] = x[i];
}

// win[b]: -1 if the initial content h0[b] attains the final h[b], else the earliest i
// with bin[i] = b and x[i] == h[b]. Caller frees.
static int *hmax_winners(int n, int k, const int *restrict bin, const double *restrict x,
                         const double *restrict h0, const double *restrict h) {
  int *win = malloc((size_t)(k > 0 ? k : 1) * sizeof *win);
  for (int b = 0; b < k; b++) win[b] = h0[b] == h[b] ? -1 : n;
  for (int i = 0; i < n; i++) {
    int b = bin[i];
    if (in_range(b, k) && win[b] >= 0 && x[i] == h[b] && i < win[b]) win[b] = i;
  }
  return win;
}

void hmax_vjp(int n, int k, const int *restrict bin, const double *restrict x,
              double *restrict x_bar, double *restrict h, double *restrict h_bar) {
  double *h0 = malloc((size_t)(k > 0 ? k : 1) * sizeof *h0);
  memcpy(h0, h, (size_t)k * sizeof *h0);
  hmax(n, k, bin, x, h);  // forward sweep
  int *win = hmax_winners(n, k, bin, x, h0, h);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    if (in_range(bin[i], k) && win[bin[i]] == i) x_bar[i] += h_bar[bin[i]];
  for (int b = 0; b < k; b++)
    if (win[b] >= 0) h_bar[b] = 0.0;
  free(h0);
  free(win);
}

void hmax_jvp(int n, int k, const int *restrict bin, const double *restrict x,
              const double *restrict x_dot, double *restrict h,
              double *restrict h_dot) {
  double *h0 = malloc((size_t)(k > 0 ? k : 1) * sizeof *h0);
  memcpy(h0, h, (size_t)k * sizeof *h0);
  hmax(n, k, bin, x, h);
  int *win = hmax_winners(n, k, bin, x, h0, h);
  for (int b = 0; b < k; b++)
    if (win[b] >= 0) h_dot[b] = x_dot[win[b]];
  free(h0);
  free(win);
}
