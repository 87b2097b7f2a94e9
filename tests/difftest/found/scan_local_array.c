// FOUND by tests/difftest/difftest.py (seed 4, program l4_59; shrunk, then by hand): a scan
// whose contribution reads a local array that a sequential loop of the body filled computes
// a wrong f (and f_vjp, f_jvp): here the running sum is 0 after the loop (z[0] = 0), silently.
// The same body in a reduce, or acc += x[i] * 2.0 without the local array, is right; a
// reduce computed as a scan (a declared operator without inverse(fn), README: the general
// rule) is wrong the same way (reduce_lse below: returns 0; found as seed 6, program l6_18).
//   tests/e2e/run_e2e.py --adsoac build/adsoac --src-dir tests/difftest/found scan_local_array
// e2e: sizes n=1,2,5
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array z[1] range(-1,1)
#include <math.h>

#pragma adsoac operator neutral(-1e30) commutative
static double lse(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}

#pragma adsoac grad
void scan_local_array(int n, const double *x, double *y, double *z) {
  double acc = 0.0;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    double v[2];
    for (int c = 0; c < 2; c++) v[c] = x[i] * (c + 1);
    acc += v[1];
    y[i] = acc;
  }
  z[0] = acc;
}

#pragma adsoac grad
double reduce_lse(int n, const double *x) {
  double s = -1e30;
#pragma adsoac reduce(lse: s)
  for (int i = 0; i < n; i++) {
    double v[2];
    for (int c = 0; c < 2; c++) v[c] = x[i] * (c + 1);
    s = lse(s, v[1]);
  }
  return s;
}
