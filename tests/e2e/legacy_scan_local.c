// A scan, and a reduction computed as a scan, whose contribution reads a local array of the
// body that a sequential loop filled (or a malloc'd scratch, privatized): the loop is split
// into the contributions, the scan and the rest (transform/scan.c), and the contributions'
// copy keeps the writes to the iteration's own arrays (found by tests/difftest/difftest.py,
// seeds 4 and 6: it dropped them, and f, f_vjp and f_jvp were silently wrong: the running sum
// 0).  Also by the general rules (e2e.general: a reduce(+) with a local array).
// e2e: sizes n=0,1,2,5
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array z[1] range(-1,1)
#include <stdlib.h>
#include <math.h>

#pragma adsoac operator neutral(-1e30) commutative
static double lse(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}

// scan(+) of an element of a local array
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

// a declared operator without inverse(fn): the reduction is computed as a scan
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

// a malloc'd scratch, each iteration's own copy
#pragma adsoac grad
double scan_scratch(int n, const double *x, double *y) {
  double acc = 0.0;
  double *sc = (double *)malloc(3 * sizeof(double));
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    for (int c = 0; c < 3; c++) sc[c] = x[i] * (c + 1);
    acc += sc[1] * sc[2];
    y[i] = acc;
  }
  free(sc);
  return acc;
}

// a reduce(+) (a scan by --general-rule) with a local array filled by a loop
#pragma adsoac grad
double reduce_local(int n, const double *x) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double q[3];
    for (int a = 0; a < 3; a++) q[a] = x[i] * (a + 0.5);
    s += q[0] * q[2];
  }
  return s;
}
