// Cases that break naive implementations: a conditional write (untouched elements keep their
// seed), a conditional reduction update, a loop reading in reverse what the previous loop
// wrote (must not fuse), a loop reading at the loop index what the previous wrote (fuses), a
// scalar read at function level from an array a loop wrote, and a value used by two loops.
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array z[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
double hazards(int n, const double *x, double *y, double *z) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.2)
      y[i] = x[i] * x[i];
    if (x[i] < 0.5) s += sin(x[i]);
  }
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] = y[n - 1 - i] * s;
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] = z[i] + y[i];
  double first = n > 0 ? z[0] : 0.0;
  return s * first;
}
