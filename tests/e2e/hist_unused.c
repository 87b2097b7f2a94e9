// hist clauses whose loop never updates the histogram (issue 16: f_jvp assigned to the
// const h_dot): a warning, the clause has no effect and the array is not written, so it is an
// input (language.md §2: const h_dot, h_bar accumulating nothing); a loop whose first clause
// is unused and second used (the updates renumbered), also from a sequential inner loop; a
// reduction with an unused hist clause.
// e2e: sizes n=0,1,2,7,33
// e2e: int k = 5
// e2e: array bin[n] range(0,5)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array h[k] range(-1,1)
// e2e: array g[k] range(-1,1)
// e2e: readonly h
#include <math.h>

#pragma adsoac grad
void hnone(int n, int k, const int *bin, const double *x, double *h, double *y) {
#pragma adsoac hist(+: h[0:k])
  for (int i = 0; i < n; i++)
    y[i] = sin(x[i]) * (double)bin[i];
}

#pragma adsoac grad
void hsecond(int n, int k, const int *bin, const double *x, double *h, double *g) {
#pragma adsoac hist(max: h[0:k]) hist(+: g[0:k])
  for (int i = 0; i < n; i++) {
    double v = x[i];
    for (int r = 0; r < 2; r++)
      g[bin[i]] += v * v + (double)r;
  }
}

#pragma adsoac grad
double hred(int n, int k, const double *x, double *h) {
  double s = 0.0;
#pragma adsoac reduce(+: s) hist(*: h[0:k])
  for (int i = 0; i < n; i++)
    s += exp(x[i]) * (double)k;
  return s;
}
