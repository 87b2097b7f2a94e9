// Hand-written OpenMP adjoint of cprod (bench/cprod.c): what a careful programmer
// writes by hand. Same signature and semantics as adsoac's cprod_vjp
// (language.md §2.1): returns the primal and accumulates into c_bar, re_bar, im_bar.
// With z_k = re[k] + i im[k] and P = (c + 0.5i) * prod_k z_k, f = Re P + 2 Im P
// = Re(w P), w = 1 - 2i. P is holomorphic and linear in each z_k, dP/dz_k = P / z_k,
// so with g = ret_bar * w * P:
//   d f/d re[k] = Re(g / z_k),  d f/d im[k] = Re(i g / z_k) = -Im(g / z_k),
//   d f/d c     = Re(g / (c + 0.5i)).
// The inputs have no zero factors (bench/cprod_main.c). The gradient needs the
// whole product first, so two passes: the complex product (OpenMP has no
// reduction for a complex product of two doubles: per-thread partials, combined
// in thread order afterwards), then the gradient.
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

double cprod_hand(int n, double c, double *restrict c_bar,
                  const double *restrict re, double *restrict re_bar,
                  const double *restrict im, double *restrict im_bar,
                  double ret_bar) {
#ifdef _OPENMP
  int nt = omp_get_max_threads();
#else
  int nt = 1;
#endif
  double *part = malloc(2 * (size_t)nt * sizeof *part);  // (re, im) per thread
  for (int t = 0; t < nt; t++) part[2 * t] = 1.0, part[2 * t + 1] = 0.0;
#pragma omp parallel num_threads(nt)
  {
#ifdef _OPENMP
    int t = omp_get_thread_num();
#else
    int t = 0;
#endif
    double ar = 1.0, ai = 0.0;
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; i++) {
      double tr = ar * re[i] - ai * im[i];
      ai = ar * im[i] + ai * re[i];
      ar = tr;
    }
    part[2 * t] = ar;
    part[2 * t + 1] = ai;
  }
  double pr = c, pi = 0.5;  // P = (c + 0.5i) * partials, in thread order
  for (int t = 0; t < nt; t++) {
    double tr = pr * part[2 * t] - pi * part[2 * t + 1];
    pi = pr * part[2 * t + 1] + pi * part[2 * t];
    pr = tr;
  }
  free(part);
  // g = ret_bar * (1 - 2i) * P
  double gr = ret_bar * (pr + 2.0 * pi), gi = ret_bar * (pi - 2.0 * pr);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
    // g / z = g * conj(z) / |z|^2
    double x = re[i], y = im[i], d = x * x + y * y;
    re_bar[i] += (gr * x + gi * y) / d;   //  Re(g / z)
    im_bar[i] += (gr * y - gi * x) / d;   // -Im(g / z)
  }
  *c_bar += (gr * c + gi * 0.5) / (c * c + 0.25);
  return pr + 2.0 * pi;
}
