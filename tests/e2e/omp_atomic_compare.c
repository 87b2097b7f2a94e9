// OpenMP 5.1's `#pragma omp atomic compare` on the min/max forms (language.md 11): read as
// hist(max/min) over the array's declared length and, on a shared scalar, as reduce(max/min).
// `if (e > h[k]) { h[k] = e; }`, `x = e < x ? e : x;`, the comparison
// either way round; ties between iterations (extremes: x takes few values), n = 0, bins no
// iteration reaches (they keep their values and their seeds).
// e2e: func binmax
// e2e: sizes n=0,1,5,12 nb=1,2,3,4
// e2e: array bin[n] range(0,nb)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array out[2] range(-1,1)
// e2e: func extremes
// e2e: sizes n=0,1,4,9
// e2e: array x[n] range(-1,1) fill(i % 3 == 1 ? 0.5 : (double)(i % 4) / 8.0 - 0.2)
// e2e: array out[2] range(-1,1)
#include <math.h>

#pragma adsoac grad
void binmax(int n, int nb, const int *bin, const double *x, const double *y, double *out) {
  double hi[nb], lo[nb];
  for (int b = 0; b < nb; b++) hi[b] = -2.0, lo[b] = 2.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = x[i] * y[i] + sin(x[i]);
#pragma omp atomic compare
    if (v > hi[bin[i]]) { hi[bin[i]] = v; }
    double u = 2.0 * y[i];
#pragma omp atomic compare
    if (lo[bin[i]] > u) { lo[bin[i]] = u; }
  }
  double s = 0.0, t = 0.0;
  for (int b = 0; b < nb; b++) s += hi[b] * (b + 1), t += lo[b] * lo[b];
  out[0] = s;
  out[1] = t;
}

#pragma adsoac grad
void extremes(int n, const double *x, double *out) {
  double mx = -1.0, mn = 1.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = 0.5 - 2.0 * x[i]; // (linear: at the ties, the one-sided differences are exact)
#pragma omp atomic compare
    mx = v > mx ? v : mx;
#pragma omp atomic compare
    mn = x[i] < mn ? x[i] : mn;
  }
  out[0] = mx;
  out[1] = mn * 3.0;
}
