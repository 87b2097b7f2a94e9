// A sequential loop assigns a carried variable the value of one it leaves unchanged
// (q = acc, acc declared first): the copy is the unchanged variable's value before the loop.
// It stopped adsoac with an internal error (the fuzzer found it in a nested loop, a shadowing
// declaration beside it); also nested in another sequential loop and in a parallel loop.
// e2e: sizes n=0,1,2,5
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
double copy(int n, const double *x) {
  double acc = n > 0 ? x[0] : 0.5, q = 0.0;
  for (int j = 0; j < n; j++) q = acc;
  return q * q + acc;
}

#pragma adsoac grad
double nested(int n, const double *x) {
  double acc = 0.25;
  for (int i = 0; i < n; i++) {
    double r = 0.0, p = 1.5, q = 0.0;
    for (int j = 0; j < 4; j++) {
      r = p;
      unsigned p = 2; // (a new p: r above read the outer one)
      q = acc + p;
      acc = acc * 0.5 + 0.125 * q;
    }
    for (int j = 0; j < 3; j++) q = acc;
    acc += sin(x[i]) * r * q;
  }
  return acc;
}

#pragma adsoac grad
void in_map(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double a = x[i], b = 0.0;
    for (int j = 0; j < 3; j++) b = a;
    y[i] = a * b;
  }
}
