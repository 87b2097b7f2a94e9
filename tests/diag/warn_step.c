#include <math.h>
#pragma adsoac grad
void f(int n, const double *x, const int *idx, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    int k = (int)(x[i] * 10);
    y[i] = floor(x[i]) + k + (double)idx[i];
  }
}
