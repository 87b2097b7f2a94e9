// Writes an array and returns a double computed by a reduction: y = x / r, r = sqrt(|x|^2 + 1).
// y has one element the loops never touch.
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1)
// e2e: array y[n+1] range(-1,1)

#include <math.h>

#pragma adsoac grad
double normalize(int n, const double *x, double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  double r = sqrt(s + 1.0);
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = x[i] / r;
  return r;
}
