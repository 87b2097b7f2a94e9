// Hand-written OpenMP adjoint of hmax (bench/histmax.c): what a careful programmer
// writes by hand. Same signature and semantics as adsoac's hmax_vjp (language.md §2.1,
// tie rule of §7): h is written, so h_bar holds the seed on entry and the adjoint of h's
// initial contents on exit; x_bar accumulates. Per bin b the whole seed h_bar[b] goes
// to the winner: the initial content h0[b] if it attains the maximum (h_bar[b] is then
// unchanged), else the earliest i with bin[i] = b and x[i] = h_final[b] (x_bar[i] +=
// h_bar[b], and h_bar[b] becomes 0).
// One pass: each thread keeps, for its contiguous chunk (schedule(static): chunks in
// thread order), the maximum of every bin with its earliest index (strict >); the
// partials are merged in thread order starting from h0 (strict >, so a tie stays with
// h0 or the earlier chunk); then one adjoint per bin. Updates outside [0, k) are skipped.
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void hmax_hand(int n, int k, const int *restrict bin, const double *restrict x,
               double *restrict x_bar, double *restrict h,
               double *restrict h_bar) {
  if (k <= 0) return;
#ifdef _OPENMP
  int nt = omp_get_max_threads();
#else
  int nt = 1;
#endif
  double *mv = malloc((size_t)nt * k * sizeof *mv);  // per-thread maxima
  int *mi = malloc((size_t)nt * k * sizeof *mi);     // and their earliest indices
#pragma omp parallel
  {
#ifdef _OPENMP
    size_t off = (size_t)omp_get_thread_num() * k;
#else
    size_t off = 0;
#endif
    double *vl = mv + off;
    int *il = mi + off;
    for (int b = 0; b < k; b++) {
      vl[b] = -INFINITY;
      il[b] = -1;
    }
#pragma omp barrier
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      int b = bin[i];
      if (b >= 0 && b < k && x[i] > vl[b]) {
        vl[b] = x[i];
        il[b] = i;
      }
    }
#pragma omp for schedule(static)
    for (int b = 0; b < k; b++) {
      double m = h[b];
      int win = -1;  // -1: the initial content
      for (int t = 0; t < nt; t++) {
        size_t j = (size_t)t * k + b;
        if (mi[j] >= 0 && mv[j] > m) {
          m = mv[j];
          win = mi[j];
        }
      }
      if (win >= 0) {
        h[b] = m;
        x_bar[win] += h_bar[b];
        h_bar[b] = 0.0;
      }
    }
  }
  free(mv);
  free(mi);
}
