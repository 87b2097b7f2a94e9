// mapwrite: one loop that writes an elementwise output and reduces a loss over it,
// y[i] = tanh(a*x[i] + b), s = sum_i (y[i] - t[i])^2. adsoac distributes it into a map and a
// reduction, differentiates each, and fuses them (and their reverse loops) back into one loop.
#include <math.h>
#pragma adsoac grad
double fit(int n, double a, double b, const double *x, const double *t, double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    y[i] = tanh(a * x[i] + b);
    double d = y[i] - t[i];
    s += d * d;
  }
  return s;
}
