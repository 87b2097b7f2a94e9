// a declared operator without an inverse, reduced inside a map: refused in reverse mode
#include <math.h>

#pragma adsoac operator neutral(-1e300) commutative
static double lse(double u, double v) {
  double m = fmax(u, v);
  return m + log(exp(u - m) + exp(v - m));
}

#pragma adsoac grad
void rows(int n, int m, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = -1e300;
#pragma adsoac reduce(lse: s)
    for (int j = 0; j < m; j++)
      s = lse(s, x[i * m + j]);
    y[i] = s;
  }
}
