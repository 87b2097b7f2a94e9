// Nested annotated loops with free variables at each level: a reduce of a map and of a
// reduce, where the inner bodies read scalars of the function (a, b) and of the enclosing
// iteration (xi): their adjoints are summed at each level (language.md §3 Nesting).
// e2e: sizes n=0,1,3,5 m=1,2,4,3
// e2e: scalar a range(-1,1)
// e2e: scalar b range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array Y[n*m] range(-1,1)
// e2e: written Y
#include <math.h>

#pragma adsoac grad
double levels(int n, int m, double a, double b, const double *x, double *Y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double xi = a * x[i];
#pragma adsoac map
    for (int j = 0; j < m; j++)
      Y[i * m + j] = sin(xi + b * j) * a;
    double t = 0.0;
#pragma adsoac reduce(+: t)
    for (int j = 0; j < m; j++)
      t += b * x[i] * cos(a + j * xi);
    s += t * xi;
  }
  return s;
}
