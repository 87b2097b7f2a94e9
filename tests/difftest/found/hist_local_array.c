// FOUND by tests/difftest/difftest.py (seed 2, program l2_7, shrunk by hand):
// a hist(*) or hist(max) whose update reads a local array that a sequential loop of the
// body filled gets wrong derivatives, silently: f is right, f_vjp gives x_bar = 0 and
// h_bar = 0 (dL/dh as if h were overwritten), f_jvp gives h_dot = 0 (hist(*)) or a
// wrong one (hist(max)).  The same body in hist(+), reduce(*) or a map is right.
//   tests/e2e/run_e2e.py --adsoac build/adsoac --src-dir tests/difftest/found hist_local_array
// e2e: sizes n=1,2,7
// e2e: array x[n] range(-1,1)
// e2e: array h[5] range(-1,1)
#include <math.h>

#pragma adsoac grad
void hist_mul(int n, const double *x, double *h) {
#pragma adsoac hist(*: h[0:5])
  for (int i = 0; i < n; i++) {
    double v[2];
    for (int j = 0; j < 2; j++) v[j] = x[i] + j;
    h[i % 5] *= v[1];
  }
}

#pragma adsoac grad
void hist_max(int n, const double *x, double *h) {
#pragma adsoac hist(max: h[0:5])
  for (int i = 0; i < n; i++) {
    double v[2];
    for (int j = 0; j < 2; j++) v[j] = x[i] + j;
    h[i % 5] = fmax(h[i % 5], v[1]);
  }
}
