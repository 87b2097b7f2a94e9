// Hand-written OpenMP adjoint of hsum (bench/histadd.c): what a careful programmer
// writes by hand. Same signature and semantics as adsoac's hsum_vjp (language.md §2.1):
// h is written, so h_bar holds the seed on entry and the adjoint of h's initial
// contents on exit; w_bar accumulates. With h_final[b] = h0[b] + sum_{bin[i] = b} w[i]^2:
//   d h_final[b] / d h0[b] = 1 (h_bar is unchanged),
//   w_bar[i] += 2 w[i] h_bar[bin[i]].
// One fused pass: each thread adds w^2 into its own copy of the k bins (no atomics)
// and accumulates w_bar from the seed (which the primal does not change); then the
// per-thread histograms are summed into h. Updates outside [0, k) are skipped.
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void hsum_hand(int n, int k, const int *restrict bin, const double *restrict w,
               double *restrict w_bar, double *restrict h,
               double *restrict h_bar) {
  if (k <= 0) return;
#ifdef _OPENMP
  int nt = omp_get_max_threads();
#else
  int nt = 1;
#endif
  double *loc = calloc((size_t)nt * k, sizeof *loc);  // per-thread histograms
#pragma omp parallel
  {
#ifdef _OPENMP
    double *hl = loc + (size_t)omp_get_thread_num() * k;
#else
    double *hl = loc;
#endif
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      int b = bin[i];
      if (b < 0 || b >= k) continue;
      double wi = w[i];
      hl[b] += wi * wi;
      w_bar[i] += 2.0 * wi * h_bar[b];
    }
#pragma omp for schedule(static)
    for (int b = 0; b < k; b++) {
      double s = 0.0;
      for (int t = 0; t < nt; t++) s += loc[(size_t)t * k + b];
      h[b] += s;
    }
  }
  free(loc);
}
