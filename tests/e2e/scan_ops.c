// scan with *, min, max (the general rule: Jacobians of each step, a reverse scan of affine
// maps; forward: a scan of dual numbers): cumulative products with zeros (one zero, two
// zeros), running max and min with ties, exclusive and inclusive reads in one loop,
// elementwise work beside the scan; n = 0, 1 and odd sizes, float and double.
// e2e: sizes n=0,1,2,7,33,100
// e2e: func cumprod
// e2e: scalar c range(0.5,1.5)
// e2e: array x[n] range(0.7,1.3)
// e2e: array w[n] range(-1,1)
// e2e: func cumprod_zeros
// e2e: array x[n] range(0.7,1.3) fill(i == 3 || i == 40 ? 0.0 : r)
// e2e: array w[n] range(-1,1)
// e2e: func runmax
// e2e: scalar c range(-1,1)
// e2e: array x[n] range(-1,1) fill(i % 5 == 2 ? 0.25 : r)
// e2e: array w[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func runmin_f
// e2e: array x[n] range(-1,1)
// e2e: array w[n] range(-1,1)
// e2e: func excl_prod
// e2e: array x[n] range(0.95,1.05)
// e2e: array y[n] range(-1,1)
#include <math.h>

// a weighted loss over the inclusive products c * x[0] * ... * x[i]
#pragma adsoac grad
double cumprod(int n, double c, const double *x, const double *w) {
  double p = c, s = 0.0;
#pragma adsoac scan(*: p) reduce(+: s)
  for (int i = 0; i < n; i++) {
    p *= x[i];
    s += w[i] * p;
  }
  return s + p;
}

// x[3] == 0 (and x[40] == 0 when n > 40): products past a zero vanish; exact, never NaN
#pragma adsoac grad
double cumprod_zeros(int n, const double *x, const double *w) {
  double p = 1.0, s = 0.0;
#pragma adsoac scan(*: p) reduce(+: s)
  for (int i = 0; i < n; i++) {
    p = p * x[i];
    s += w[i] * p;
  }
  return s;
}

// the running maximum, its value before (exclusive) and after (inclusive) each element
#pragma adsoac grad
double runmax(int n, double c, const double *x, const double *w, double *y) {
  double m = c, s = 0.0;
#pragma adsoac scan(max: m) reduce(+: s)
  for (int i = 0; i < n; i++) {
    y[i] = m * x[i];
    if (x[i] > m) m = x[i];
    s += w[i] * m;
  }
  return s;
}

#pragma adsoac grad
float runmin_f(int n, const float *x, const float *w) {
  float m = 2.0f, s = 0.0f;
#pragma adsoac scan(min: m) reduce(+: s)
  for (int i = 0; i < n; i++) {
    m = fminf(m, x[i]);
    s += w[i] * m * m;
  }
  return s;
}

// y[i] = sin of the product of x[0..i-1] (exclusive), the total returned
#pragma adsoac grad
double excl_prod(int n, const double *x, double *y) {
  double p = 1.0;
#pragma adsoac scan(*: p)
  for (int i = 0; i < n; i++) {
    y[i] = sin(p);
    p *= x[i];
  }
  return p;
}
