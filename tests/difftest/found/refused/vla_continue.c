// REFUSED (adsoac exits 1), found by tests/difftest/difftest.py (seed 6, program l6_20;
// shrunk, then by hand): a variable-length array at the start of a parallel loop's body (where the hint
// asks for it) is refused when the body has a continue (after it); without the continue,
// translated.
// adsoac says:
//   error: a variable-length array inside a loop or an if
//   = hint: declare it at the start of the parallel loop's body or of the function, or give it a
//   constant size
// e2e: sizes n=0,1,5 d=1,2,3
// e2e: array x[n*d] range(-1,1)
// e2e: array y[n] range(-1,1)
#pragma adsoac grad
void vla_continue(int n, int d, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[d];
    for (int c = 0; c < d; c++) v[c] = x[i * d + c];
    if (x[i] > 0.5) continue;
    y[i] = v[0] * v[d - 1];
  }
}
