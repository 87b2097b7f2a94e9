// fuzz seed: the pragma forms of the contract (most refused with "not supported yet")
#include <math.h>
typedef struct { double a, b; } Lin;

#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_then(Lin f, Lin g) { return (Lin){g.a * f.a, g.a * f.b + g.b}; }

static double sub(double a, double b) { return a - b; }

#pragma adsoac operator neutral(0.0) commutative inverse(sub)
static double add(double a, double b) { return a + b; }

#pragma adsoac grad wrt(x, a)
double all(int n, int k, double a, const double *x, double *y, double *z, const int *bin) {
  double s = 1.0, mn = 1e308, q = 0.0;
#pragma adsoac reduce(*: s) reduce(min: mn) reduce(add: q)
  for (int i = 0; i < n; i++) {
    s *= x[i];
    mn = fmin(mn, x[i]);
    q = add(q, x[i]);
  }
  double acc = 0.0;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    acc += x[i] * a;
    y[i] = acc;
  }
#pragma adsoac hist(+: z[0:k])
  for (int i = 0; i < n; i++)
    z[bin[i]] += x[i];
#pragma adsoac stripmine(2)
  for (int t = 0; t < 10; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      y[i] = y[i] * s + mn;
  }
  return s + q;
}
