// FOUND by tests/difftest/difftest.py (seed 4, program l4_59; shrunk, then by hand): a scan
// whose contribution reads a local array that a sequential loop of the body filled computes
// a wrong f (and f_vjp, f_jvp): here the running sum is 0 after the loop (z[0] = 0), silently.
// The same body in a reduce, or acc += x[i] * 2.0 without the local array, is right.
//   tests/e2e/run_e2e.py --adsoac build/adsoac --src-dir tests/difftest/found scan_local_array
// e2e: sizes n=1,2,5
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array z[1] range(-1,1)

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
