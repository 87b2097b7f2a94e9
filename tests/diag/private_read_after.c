#include <stdlib.h>
// The scratch array is read after the loop (the last iteration's values): not privatizable.
#pragma adsoac grad
double f(int n, int d, const double *x, double *y) {
  double *t = malloc(d * sizeof(double));
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) t[j] = x[i] * j;
    double s = 0;
    for (int j = 0; j < d; j++) s += t[j];
    y[i] = s;
  }
  double last = d > 0 ? t[0] : 0.0;
  free(t);
  return last;
}
