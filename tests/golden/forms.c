// Every loop form and update form of language.md §3, and C constructs of §6, in the IR.
#include <math.h>
#include <stddef.h>

static double sq(double v) { return v * v; }

#pragma adsoac grad wrt(x)
double forms(long n, size_t m, const double *restrict x, const float *w, double *y) {
  double s = 0.0, lo = INFINITY, hi = -INFINITY;
#pragma adsoac reduce(+: s) reduce(min: lo) reduce(max: hi)
  for (long i = 0; i <= n - 1; ++i) {
    double t = (double)w[i] * x[i];
    s = s + sq(t);
    lo = t < lo ? t : lo;
    hi = fmax(t, hi);
  }
#pragma adsoac map
  for (size_t j = 0; j < m; j += 1) {
    int k = (int)j % 3;
    y[j] = k == 0 ? x[j] : (k == 1 && x[j] > 0 ? sqrt(x[j]) : -x[j]);
  }
  return s * (hi - lo);
}
