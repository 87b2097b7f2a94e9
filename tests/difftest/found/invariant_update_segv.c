// FOUND by tests/difftest/difftest.py (seed 1, program l1_13; shrunk, then by hand): adsoac
// crashes (SIGSEGV, in the front end: lower_for -> ir_inside -> inside_at -> ir_node_defs)
// on a parallel loop's body that updates a local array in place, then, under an if,
// updates it again in a sequential loop with a factor read at an index the parallel loop
// does not change (0.5 * p[0]).  Without the first update: the internal error of
// invariant_fill.c; with v[b] + p[0] * v[0] instead of 0.5 * p[0] * v[0]: translated.
// e2e: sizes n=0,1,5
// e2e: array x[n] range(-1,1)
// e2e: array p[8] range(-1,1)
// e2e: array y[n] range(-1,1)

#pragma adsoac grad
void invariant_update_segv(int n, const double *x, const double *p, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[2] = {x[i], 0.25};
    v[1] *= x[i];
    if (p[1] >= 0.3) {
      for (int b = 1; b < 2; b++) v[b] = v[b] + 0.5 * p[0] * v[0];
    }
    y[i] = v[1];
  }
}
