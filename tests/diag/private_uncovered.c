#include <stdlib.h>
// The scratch array carries a value from one iteration to the next: not privatizable.
#pragma adsoac grad
void f(int n, int d, const double *x, double *y) {
  double *t = malloc(d * sizeof(double));
  for (int j = 0; j < d; j++) t[j] = 0;
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = t[0] * x[i];
    for (int j = 0; j < d; j++) t[j] = x[i] * j;
  }
  free(t);
}
