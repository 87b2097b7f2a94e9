// Calls to functions defined in the same file, inlined: a pure helper, a helper with an early
// return in an if (the rest of its body becomes the else branch), a void helper that writes
// an array element, helpers calling helpers, an int argument converted to double.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar a range(0.5,1.5)
// e2e: array x[n] range(-1.5,1.5)
// e2e: array y[n] range(-1,1)
#include <math.h>

static double sq(double x) { return x * x; }

static inline double leaky(double x) {
  if (x > 0)
    return x;
  double s = 0.01;
  return s * x;
}

static double halve(double v) { return v / 2; }

static double smooth(double a, double x) { return leaky(a * sq(x) - 1.0) + halve(x) + halve(3); }

static void put(double *y, int i, double v) { y[i] = v; }

#pragma adsoac grad
double helpers(int n, double a, const double *x, double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    put(y, i, smooth(a, x[i]));
    s += sq(y[i]);
  }
  return s;
}
