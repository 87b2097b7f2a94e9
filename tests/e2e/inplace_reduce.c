// reduce(*), max and a declared operator with an inverse in loops that also update the array
// they reduce in place. The special rules' second loop (zero count / winner / inverse, then
// the tangents) would re-read the new elements, so f_jvp takes the general rule in one pass
// there (f_jvp was silently wrong before); f_vjp restores the old elements. The operator is
// declared after marked functions (the pass-through of the source used to break on that).
// e2e: sizes n=1,2,7,12
// e2e: func prod_clear
// e2e: array y[n] range(0.5,1.5) fill(i == 4 ? 0.0 : r)
// e2e: func max_halve
// e2e: array y[n] range(-1,1) fill(i % 5 == 2 ? 0.75 : r)
// e2e: func op_clear
// e2e: array y[n] range(0.5,1.5)
// e2e: func prod_sum
// e2e: array y[n] range(0.5,1.5) fill(i % 6 == 1 || i % 6 == 4 ? 0.0 : r)
// e2e: scalar c range(0.5,1.5)
#include <math.h>

#pragma adsoac grad
double prod_clear(int n, double *y) {
  double p = 1.5;
#pragma adsoac reduce(*: p)
  for (int i = 0; i < n; i++) {
    p *= y[i];
    y[i] = 0.0;
  }
  return p;
}

#pragma adsoac grad
double max_halve(int n, double *y) {
  double hi = 0.75;
#pragma adsoac reduce(max: hi)
  for (int i = 0; i < n; i++) {
    if (y[i] > hi) hi = y[i];
    y[i] = 0.5 * y[i];
  }
  return hi;
}

static double mydiv(double a, double b) { return a / b; }
#pragma adsoac operator neutral(1.0) commutative inverse(mydiv)
static double mymul(double a, double b) { return a * b; }

#pragma adsoac grad
double op_clear(int n, double *y) {
  double p = 1.0;
#pragma adsoac reduce(mymul: p)
  for (int i = 0; i < n; i++) {
    p = mymul(p, y[i]);
    y[i] = 0.0;
  }
  return p;
}

#pragma adsoac grad
double prod_sum(int n, double c, double *y) {
  double p = c, s = 0.0;
#pragma adsoac reduce(*: p) reduce(+: s)
  for (int i = 0; i < n; i++) {
    p *= y[i];
    y[i] = sin(y[i]) + c;
    s += y[i] * y[i];
  }
  return p + s;
}
