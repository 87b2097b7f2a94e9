#include <math.h>
static double sub(double a, double b) { return a - b; }
#pragma adsoac operator neutral(0.0) commutative inverse(sub)
static double add(double a, double b) { return a + b; }
#pragma adsoac operator neutral(1.0)
static double mulop(double a, double b) { return a * b; }

#pragma adsoac grad
double all(int n, int nb, const double *x, const int *bin, double *y, double *h, double *g) {
  double s = 0, p = 1, lo = INFINITY, hi = -INFINITY, u = 0, acc = 0, q = 1;
#pragma adsoac reduce(+: s) reduce(*: p) reduce(min: lo) reduce(max: hi) reduce(add: u)
  for (int i = 0; i < n; i++) {
    s += x[i];
    p = p * x[i];
    lo = fmin(lo, x[i]);
    if (x[i] > hi) hi = x[i];
    u = add(u, x[i]);
  }
#pragma adsoac scan(+: acc) scan(mulop: q)
  for (int i = 0; i < n; i++) {
    y[i] = acc;
    acc += x[i];
    q = mulop(q, x[i]);
    y[i] = y[i] + acc * q;
  }
#pragma adsoac hist(+: h[0:nb]) hist(max: g[0:nb])
  for (int i = 0; i < n; i++) {
    h[bin[i]] += x[i];
    g[bin[i]] = x[i] > g[bin[i]] ? x[i] : g[bin[i]];
  }
  return s + p + lo + hi + u + acc + q;
}
