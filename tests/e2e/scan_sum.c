// scan(+): a cumulative sum feeding a weighted loss (inclusive reads), an exclusive scan, the
// total returned, the initial value active (alone in cum_init:
// the contributions do not vary); n = 0, 1 and odd sizes, float and double.
// e2e: sizes n=0,1,2,7,33,100
// e2e: func cumloss
// e2e: scalar c range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array w[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func excl
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func cum_init
// e2e: scalar c range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func cumloss_f
// e2e: array x[n] range(-1,1)
// e2e: array w[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
double cumloss(int n, double c, const double *x, const double *w, double *y) {
  double acc = c, s = 0.0;
#pragma adsoac scan(+: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc += x[i] * x[i];
    y[i] = sin(acc);
    s += w[i] * acc;
  }
  return s + 0.5 * acc;
}

// y[i] = sum of x[j] for j < i (the value before the update), then a nonlinear use
#pragma adsoac grad
double excl(int n, const double *x, double *y) {
  double acc = 0.0;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    y[i] = acc * acc;
    acc += exp(x[i]);
  }
  return acc;
}

#pragma adsoac grad
float cumloss_f(int n, const float *x, const float *w) {
  float acc = 0.0f, s = 0.0f;
#pragma adsoac scan(+: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc += x[i];
    s += w[i] * acc * acc;
  }
  return s;
}

// wrt(c): only the initial value varies, the contributions x[i]^2 do not
#pragma adsoac grad wrt(c)
double cum_init(int n, double c, const double *x, double *y) {
  double acc = c;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    acc += x[i] * x[i];
    y[i] = acc * acc;
  }
  return acc;
}
