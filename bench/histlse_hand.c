// Hand-written OpenMP adjoint of hlse (bench/histlse.c): what a careful programmer
// writes by hand. Same signature and semantics as adsoac's hlse_vjp (language.md §2.1):
// h is written, so h_bar holds the seed on entry and the adjoint of h's initial
// contents on exit; x_bar accumulates. With
//   h_final[b] = log(exp(h0[b]) + sum_{bin[i] = b} exp(x[i])):
//   x_bar[i] += h_bar[b] exp(x[i] - h_final[b])   (b = bin[i]),
//   h_bar[b] = h_bar[b] exp(h0[b] - h_final[b])   (0 if h0[b] = -INFINITY, the neutral
//                                                   element, and the bin was updated).
// A bin no update reaches keeps its content and its seed.
// Two passes: each thread keeps, per bin, a running log-sum-exp as a maximum m and a
// sum s of exp(x - m) (rescaled when the maximum grows: stable for any x, one exp per
// element); the partials are combined with h0 into h_final; then the x adjoints (one
// exp per element), and finally h_bar scaled per bin. No sort, no n-sized temporary.
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void hlse_hand(int n, int k, const int *restrict bin, const double *restrict x,
               double *restrict x_bar, double *restrict h,
               double *restrict h_bar) {
  if (k <= 0) return;
#ifdef _OPENMP
  int nt = omp_get_max_threads();
#else
  int nt = 1;
#endif
  double *lm = malloc((size_t)nt * k * sizeof *lm);  // per-thread maxima
  double *ls = malloc((size_t)nt * k * sizeof *ls);  // per-thread sums of exp(x - m)
  double *hf = malloc((size_t)k * sizeof *hf);       // h_final
#pragma omp parallel
  {
#ifdef _OPENMP
    size_t off = (size_t)omp_get_thread_num() * k;
#else
    size_t off = 0;
#endif
    double *ml = lm + off, *sl = ls + off;
    for (int b = 0; b < k; b++) {
      ml[b] = -INFINITY;
      sl[b] = 0.0;
    }
#pragma omp barrier
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      int b = bin[i];
      if (b < 0 || b >= k) continue;
      double v = x[i];
      if (v > ml[b]) {
        sl[b] = sl[b] * exp(ml[b] - v) + 1.0;  // exp(-inf) = 0 for the first update
        ml[b] = v;
      } else {
        sl[b] += exp(v - ml[b]);
      }
    }
#pragma omp for schedule(static)
    for (int b = 0; b < k; b++) {
      double m = h[b];
      for (int t = 0; t < nt; t++) m = fmax(m, lm[(size_t)t * k + b]);
      if (m == -INFINITY) {  // h0 = -INFINITY and no update: nothing changes
        hf[b] = m;
        continue;
      }
      double s = exp(h[b] - m);
      for (int t = 0; t < nt; t++) s += ls[(size_t)t * k + b] * exp(lm[(size_t)t * k + b] - m);
      hf[b] = m + log(s);
    }
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      int b = bin[i];
      if (b >= 0 && b < k) x_bar[i] += h_bar[b] * exp(x[i] - hf[b]);
    }
#pragma omp for schedule(static)
    for (int b = 0; b < k; b++) {
      if (hf[b] != -INFINITY) h_bar[b] *= exp(h[b] - hf[b]);
      h[b] = hf[b];
    }
  }
  free(lm);
  free(ls);
  free(hf);
}
