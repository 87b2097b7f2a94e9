// REFUSED (adsoac exits 1), found by tests/difftest/difftest.py (legacy space, seeds 8-9),
// reduced by hand:
// y[i] and y[n + i] in a map counting down (for (i = n - 1; i >= 0; i--)); the same loop
// counting up is translated.
// adsoac says:
//   error: iterations of the parallel loop may depend on each other: this write of 'y' may reach
//   an element that another iteration writes at 8:5 (the dependence test cannot show that they
//   never do)
//   = hint: if no element of 'y' that one iteration reads or writes is written by another, say so
//   with injective(y) on the pragma; or split the loop in two
// e2e: sizes n=0,1,5
// e2e: array x[n] range(-1,1)
// e2e: array y[2*n] range(-1,1)
#pragma adsoac grad
void offsets_down(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = n - 1; i >= 0; i--) {
    y[i] = x[i] * x[i];
    y[n + i] = 2.0 * x[i];
  }
}
