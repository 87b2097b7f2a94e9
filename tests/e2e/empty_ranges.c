// Empty ranges at the ends of int (issue 16): a loop [lo, hi) with hi <= lo runs no
// iteration, also where hi - lo wraps in int (lo = 1, hi = INT_MIN; lo = 2e9, hi = -2e9;
// lo = INT_MAX, hi = INT_MIN); a hist section with a negative length (-8, INT_MIN) has no bin
// (every update skipped, no temporary of that length); the last two cases run the loops over
// real ranges (4 and 0 iterations) to check the values. Maps (in place: the saved section),
// reductions (+, max, *), a scan, a nested reduction's range, a time loop's range and its map's,
// hist with +, *, max and a declared operator without an inverse (the general rule).
// e2e: sizes n=8,8,8,8,8,8 c=0,1,2,3,4,5
// e2e: int lo = c == 0 ? 1 : c == 1 ? 2000000000 : c == 2 ? 2147483647 : c == 3 ? 0 : c == 4 ? 2 : 5
// e2e: int hi = c == 0 ? -2147483647 - 1 : c == 1 ? -2000000000 : c == 2 ? -2147483647 - 1 : c == 3 ? -5 : c == 4 ? 6 : 5
// e2e: int len = c == 0 ? -8 : c == 1 ? -2147483647 - 1 : c == 2 ? -1 : c == 3 ? 0 : c == 4 ? 5 : 3
// e2e: int hlo = c == 2 ? 2147483647 : c == 1 ? -2147483647 - 1 : c == 4 ? 2 : 1
// e2e: array x[n] range(0.5,1.5)
// e2e: array y[n] range(-1,1)
// e2e: array u[n] range(-1,1)
// e2e: array h[n] range(0.5,1.5)
// e2e: array bin[n] range(0,8)
#include <math.h>

#pragma adsoac operator neutral(-INFINITY) commutative
static double lse(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}

#pragma adsoac grad
void emap(int n, int lo, int hi, const double *x, double *y) {
#pragma adsoac map
  for (int i = lo; i < hi; i++)
    y[i] = sin(x[i]) * y[i];
}

#pragma adsoac grad
double ered(int n, int lo, int hi, const double *x) {
  double s = 0.0, m = -1.0, p = 1.0;
#pragma adsoac reduce(+: s) reduce(max: m) reduce(*: p)
  for (int i = lo; i < hi; i++) {
    s += x[i] * x[i];
    m = fmax(m, x[i]);
    p *= x[i];
  }
  return s + m + p;
}

#pragma adsoac grad
double escan(int n, int lo, int hi, const double *x, double *y) {
  double acc = 0.5;
#pragma adsoac scan(+: acc)
  for (int i = lo; i < hi; i++) {
    acc += x[i];
    y[i] = acc * acc;
  }
  return acc;
}

#pragma adsoac grad
void enest(int n, int lo, int hi, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = lo; j < hi; j++)
      s += x[j] * x[i];
    y[i] = s;
  }
}

#pragma adsoac grad
void etime(int n, int lo, int hi, double *u) {
  for (int t = lo; t < hi; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = sin(u[i]) + 0.5 * u[i];
  }
#pragma adsoac map
  for (int i = lo; i < hi; i++)
    u[i] = cos(u[i]) * u[i];
}

#ifdef ADSOAC_E2E_REFERENCE
#define IN_SECTION(k) ((long)(k) >= (long)hlo && (long)(k) < (long)hlo + (long)len)
#else
#define IN_SECTION(k) 1
#endif

#pragma adsoac grad
void ehadd(int n, int hlo, int len, const int *bin, const double *x, double *h) {
#pragma adsoac hist(+: h[hlo:len])
  for (int i = 0; i < n; i++)
    if (IN_SECTION(bin[i]))
      h[bin[i]] += x[i] * x[i];
}

#pragma adsoac grad
void ehmul(int n, int hlo, int len, const int *bin, const double *x, double *h) {
#pragma adsoac hist(*: h[hlo:len])
  for (int i = 0; i < n; i++)
    if (IN_SECTION(bin[i]))
      h[bin[i]] *= x[i];
}

#pragma adsoac grad
void ehmax(int n, int hlo, int len, const int *bin, const double *x, double *h) {
#pragma adsoac hist(max: h[hlo:len])
  for (int i = 0; i < n; i++)
    if (IN_SECTION(bin[i]))
      h[bin[i]] = fmax(h[bin[i]], x[i]);
}

#pragma adsoac grad
void ehgen(int n, int hlo, int len, const int *bin, const double *x, double *h) {
#pragma adsoac hist(lse: h[hlo:len])
  for (int i = 0; i < n; i++)
    if (IN_SECTION(bin[i]))
      h[bin[i]] = lse(h[bin[i]], x[i]);
}
