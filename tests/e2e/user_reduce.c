// reduce with declared operators, commutative with an inverse (the invertible-operator rule of
// papers/reduce-scan-hist-rules.md §2.6: no scans): a sum and a product written as functions,
// a non-trivial initial value, and a contribution computed in the body.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar c range(0.5,1.5)
// e2e: array x[n] range(0.8,1.25)
#include <math.h>

static double minus(double a, double b) { return a - b; }
static double over(double a, double b) { return a / b; }

#pragma adsoac operator neutral(0.0) commutative inverse(minus)
static double plus(double a, double b) { return a + b; }

#pragma adsoac operator neutral(1.0) commutative inverse(over)
static double times(double a, double b) { return a * b; }

#pragma adsoac grad
double user_reduce(int n, double c, const double *x) {
  double s = c, p = c;
#pragma adsoac reduce(plus: s) reduce(times: p)
  for (int i = 0; i < n; i++) {
    double v = sin(x[i]) + x[i];
    s = plus(s, v * v);
    p = times(p, v);
  }
  return s + 0.5 * p;
}
