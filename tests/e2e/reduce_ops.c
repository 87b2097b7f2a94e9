// reduce with *, min and max (papers/reduce-scan-hist-rules.md §2.3-2.4, language.md §7):
// products with no, one and two zero factors (and a zero initial value), extrema with ties
// between elements (the earliest wins) and with the initial value (it wins), every update form,
// several clauses with different operators in one loop, elementwise work beside them.
// e2e: sizes n=0,1,2,7,33
// e2e: func prod
// e2e: scalar c range(0.5,1.5)
// e2e: array x[n] range(0.6,1.4)
// e2e: func prod_one_zero
// e2e: scalar c range(0.5,1.5)
// e2e: array x[n] range(0.6,1.4) fill(i == n / 2 ? 0.0 : r)
// e2e: func prod_two_zeros
// e2e: scalar c range(0.5,1.5)
// e2e: array x[n] range(0.6,1.4) fill(i == 0 || i == n - 1 ? 0.0 : r)
// e2e: func prod_zero_init
// e2e: scalar c fill(0.0)
// e2e: array x[n] range(0.6,1.4) fill(i == 1 ? 0.0 : r)
// e2e: func extrema
// e2e: scalar c range(-3,-2)
// e2e: array x[n] range(-1,0.4) fill(i % 3 == 1 ? 0.5 : r)
// e2e: array y[n] range(-1,1)
// e2e: func extrema_init
// e2e: scalar c fill(0.5)
// e2e: array x[n] range(-1,0.4) fill(i % 4 == 0 ? 0.5 : r)
// e2e: array y[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
double prod(int n, double c, const double *x) {
  double p = c;
#pragma adsoac reduce(*: p)
  for (int i = 0; i < n; i++)
    p *= x[i];
  return p;
}

#pragma adsoac grad
double prod_one_zero(int n, double c, const double *x) {
  double p = c;
#pragma adsoac reduce(*: p)
  for (int i = 0; i < n; i++)
    p = p * (2.0 * x[i]);
  return p;
}

#pragma adsoac grad
double prod_two_zeros(int n, double c, const double *x) {
  double p = c;
#pragma adsoac reduce(*: p)
  for (int i = 0; i < n; i++)
    p = x[i] * p;
  return p;
}

#pragma adsoac grad
double prod_zero_init(int n, double c, const double *x) {
  double p = c;
#pragma adsoac reduce(*: p)
  for (int i = 0; i < n; i++)
    p *= x[i] + 1.0;
  return p;
}

// max with ties between elements (0.5 at i = 1, 4, 7, ...: i = 1 gets the adjoint), min in
// the same loop, a sum and an elementwise write beside them
#pragma adsoac grad
double extrema(int n, double c, const double *x, double *y) {
  double hi = c, lo = -c, s = 0.0;
#pragma adsoac reduce(max: hi) reduce(min: lo) reduce(+: s)
  for (int i = 0; i < n; i++) {
    double v = x[i] * 1.0;
    if (v > hi) hi = v;
    lo = fmin(lo, v);
    y[i] = v * v;
    s += y[i];
  }
  return 2.0 * hi + 3.0 * lo + s;
}

// the initial value attains the maximum (0.5) and so gets the whole adjoint
#pragma adsoac grad
double extrema_init(int n, double c, const double *x, double *y) {
  double hi = c;
#pragma adsoac reduce(max: hi)
  for (int i = 0; i < n; i++) {
    hi = x[i] > hi ? x[i] : hi;
    y[i] = exp(x[i]);
  }
  return hi;
}
