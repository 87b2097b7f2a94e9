// Hand-written OpenMP adjoint of hprod (bench/histmul.c): what a careful programmer
// writes by hand. Same signature and semantics as adsoac's hprod_vjp (language.md §2.1):
// h is written, so h_bar holds the seed on entry and the adjoint of h's initial
// contents on exit; x_bar accumulates. With P[b] = prod_{bin[i] = b} x[i] and
// h_final[b] = h0[b] P[b]:
//   x_bar[i] += h_bar[b] h_final[b] / x[i]   (b = bin[i]),
//   h_bar[b] = h_bar[b] P[b]                 (= h_bar h_final / h0, without dividing).
// NOT zero-safe: the x adjoint divides by x[i], which is fine for the benchmark's
// input (x in [0.999, 1.001), no zeros) but not in general (adsoac's rule, language.md
// §7, is exact with zeros; the driver checks that part against a brute-force product
// of the other factors, not against this). A zero h0[b] is fine (no division by h0).
// Two passes: per-thread products P over the k bins (no atomics), combined into P and
// h_final; then the x adjoints from the seed; finally h_bar scaled by P.
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void hprod_hand(int n, int k, const int *restrict bin, const double *restrict x,
                double *restrict x_bar, double *restrict h,
                double *restrict h_bar) {
  if (k <= 0) return;
#ifdef _OPENMP
  int nt = omp_get_max_threads();
#else
  int nt = 1;
#endif
  double *loc = malloc((size_t)nt * k * sizeof *loc);  // per-thread products
  double *P = malloc((size_t)k * sizeof *P);
#pragma omp parallel
  {
#ifdef _OPENMP
    double *pl = loc + (size_t)omp_get_thread_num() * k;
#else
    double *pl = loc;
#endif
    for (int b = 0; b < k; b++) pl[b] = 1.0;
#pragma omp barrier
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      int b = bin[i];
      if (b >= 0 && b < k) pl[b] *= x[i];
    }
#pragma omp for schedule(static)
    for (int b = 0; b < k; b++) {
      double p = 1.0;
      for (int t = 0; t < nt; t++) p *= loc[(size_t)t * k + b];
      P[b] = p;
      h[b] *= p;  // h_final
    }
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      int b = bin[i];
      if (b >= 0 && b < k) x_bar[i] += h_bar[b] * h[b] / x[i];
    }
#pragma omp for schedule(static)
    for (int b = 0; b < k; b++) h_bar[b] *= P[b];
  }
  free(loc);
  free(P);
}
