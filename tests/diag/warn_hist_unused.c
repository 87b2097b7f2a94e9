// a hist clause whose loop never updates the histogram: a warning, the loop is a map and 'h'
// is not written (an input: const h_dot in f_jvp)
#include <math.h>
#pragma adsoac grad
void f(int n, int k, const int *bin, const double *x, double *h, double *y) {
#pragma adsoac hist(+: h[0:k])
  for (int i = 0; i < n; i++)
    y[i] = sin(x[i]);
}
