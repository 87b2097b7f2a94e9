// Function-level control flow around loops: a loop inside an if whose condition depends on a
// previous loop's result, scalar code on both paths, element stores at function level
// (out[0] = ...), a reduction feeding a later map, and an int parameter in the condition.
// e2e: sizes n=0,1,2,7,33
// e2e: int mode = n % 2
// e2e: scalar a range(0.5,1.5)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array out[2] range(-1,1)
#include <math.h>

#pragma adsoac grad
double host_if(int n, int mode, double a, const double *x, double *y, double *out) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  double scale;
  if (s > 1.0 || mode) {
    scale = a / (1.0 + s);
#pragma adsoac map
    for (int i = 0; i < n; i++)
      y[i] = scale * x[i];
    out[0] = scale;
  } else {
    scale = a * s;
    out[1] = scale * scale;
  }
  double t = 0.0;
#pragma adsoac reduce(+: t)
  for (int i = 0; i < n; i++)
    t += sin(x[i]) * scale;
  return t + out[0];
}
