// FOUND by tests/difftest/difftest.py (seed 6, program l6_4; shrunk, then by hand): in a time
// loop, a sequential loop that adds y[c] * x[c] to a carried scalar, then a map that
// overwrites y with it: f_vjp is wrong (x_bar, y_bar; <jvp, w> != <u, vjp> too), silently;
// f and f_jvp are right.  With the sum written as a reduce(+: s) loop (hv += s after it):
// right.  Also wrong with hv = hv + y[c] * x[c] and with hv += y[c] * x[c] * hv.
// e2e: sizes n=1,2,5
// e2e: int steps = 3
// e2e: array x[n] range(-1,1)
// e2e: array y[2*n] range(-1,1)

#pragma adsoac grad
void time_loop_running_sum(int n, int steps, const double *x, double *y) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++) {
    for (int c = 0; c < n; c++) hv += y[c] * x[c];
#pragma adsoac map
    for (int i = 0; i < n; i++) y[2 * i] = hv;
  }
}
