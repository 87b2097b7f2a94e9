// the same through an element written from the running value (found by the differential
// tester: the exclusive prefix stored in y[i], then read back into the added value)
#include <math.h>
#pragma adsoac grad
double scanself(int n, const double *x, double *y) {
  double acc = 1e3;
#pragma adsoac scan(min: acc)
  for (int i = 0; i < n; i++) {
    double t = 0.5 + y[i];
    y[i] = acc + x[i];
    acc = fmin(acc, t * y[i]);
  }
  return acc;
}
