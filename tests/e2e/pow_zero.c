// pow at x == 0: d/dx x^0 is 0 (it was NaN: 0 * 0^-1), d/dx x^1 is 1, d/dx x^2 is 0; the
// exponent w is a parameter that is 0, so the rule cannot rely on a constant (w is not
// differentiated: d/dw 0^w has no value at w = 0).
// e2e: sizes n=1,4,7
// e2e: array x[n] range(-1,1) fill(i % 2 == 0 ? 0.0 : r)
// e2e: scalar w range(0,1) fill(0.0)
// e2e: func pow_w
// e2e: scalar w range(1,2)
#include <math.h>

#pragma adsoac grad wrt(x)
double pow_zero(int n, double w, const double *x) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += pow(x[i], 0.0) + pow(x[i], 1.0) + pow(x[i], 2.0) + pow(x[i], w) + x[i];
  return s;
}

// w != 0, x > 0: the general rule, and d/dw = x^w log x
#pragma adsoac grad
double pow_w(int n, double w, const double *x) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += pow(fabs(x[i]) + 0.5, w);
  return s;
}
