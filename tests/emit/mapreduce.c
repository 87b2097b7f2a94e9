// One loop with an elementwise write and a reduction that reads the written element.
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1)
// e2e: array w[n] range(-1,1)
// e2e: array y[n] range(-1,1)

#include <math.h>

#pragma adsoac grad
double mapreduce(int n, const double *x, const double *w, double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    y[i] = exp(x[i]);
    s += y[i] * w[i];
  }
  return s;
}
