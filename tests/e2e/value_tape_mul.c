// A time loop whose parallel loop reduces with * and calls a costly function (difftest
// l777_5): the store-all forward run keeps the call's values on a tape, whose allocation goes
// before the loop, and the loop's zero count and nonzero product, combined with the initial
// value after it, stay after it (an internal error before: the combination came first).
// e2e: sizes n=0,1,2,7,33 steps=2,3,0,1,3
// e2e: seeds 2
// e2e: array x[n] range(-1,1)
// e2e: array p[8] range(-1,1)
// e2e: array y[n] range(-1,1) fill(i % 5 == 3 ? 0.0 : r)
// e2e: scalar a range(-1,1)
#include <math.h>

#pragma adsoac grad
double vtmul(int n, int steps, double a, const double *x, const double *p, const double *y) {
  double tot = 0.0;
  for (int t = 0; t < steps; t++) {
    double s1 = 1.0;
#pragma adsoac reduce(*: s1)
    for (int i = n - 1; i >= 0; i -= 2) {
      double lv[2] = {y[i], p[1]};
      if (x[i] > 0) lv[0] = a * lv[0] + 0.5;
      s1 *= lv[0] * cos(p[5] * x[i]) + lv[1];
    }
    tot += s1 * (1.0 + 0.25 * t);
  }
  return tot;
}
