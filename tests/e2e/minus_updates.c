// A + reduction or scan updated by subtraction (s -= e; s = s - e: OpenMP's reduction(-: s)
// means +, language.md 11), or by a chain (t = t - a + b, as legacy code accumulates): the
// contribution is -e, -a + b; a + hist by h[k] -= e and h[k] = h[k] - e.
// e2e: sizes n=0,1,4,9
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func minus_hist
// e2e: sizes n=0,1,4,9 nb=1,2,3,3
// e2e: array bin[n] range(0,nb)
// e2e: array x[n] range(-1,1)
// e2e: array h[nb] range(-1,1)
#include <math.h>

#pragma adsoac grad
double minus_updates(int n, const double *x, double *y) {
  double s = 1.0, t = 0.0, acc = 0.5;
#pragma adsoac reduce(+: s, t)
  for (int i = 0; i < n; i++) {
    s -= x[i] * x[i];
    t = t - sin(x[i]) + 0.25;
  }
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    acc -= x[i] * s;
    y[i] = acc * acc;
  }
  return s * t + acc;
}

#pragma adsoac grad
void minus_hist(int n, int nb, const int *bin, const double *x, double *h) {
#pragma adsoac hist(+: h[0:nb])
  for (int i = 0; i < n; i++) {
    h[bin[i]] -= x[i] * x[i];
    h[(bin[i] + 1) % nb] = h[(bin[i] + 1) % nb] - sin(x[i]);
  }
}
