// FOUND by tests/difftest/difftest.py (seed 5, program l5_16; shrunk, then by hand): adsoac
// crashes (SIGSEGV in arena_alloc, from lower_branch <- lower_if_parts <- lower_if_) on a
// parallel loop's body with an if that writes a local array through a pointer and, in a
// nested if, updates it in place in a helper's loop (GMM's Qtimesx-like ptri); the same
// without the pointer: the internal error of nested_if_inplace.c.  8 of the first 240
// legacy programs crashed this way.
// e2e: sizes n=0,1,5
// e2e: scalar a range(-1,1)
// e2e: array p[8] range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)

static void ptri(int m, const double *l, double *v) {
  for (int a = 0; a < m; a++)
    for (int b = a + 1; b < m; b++) v[b] = v[b] + 0.5 * l[a] * v[a];
}

#pragma adsoac grad
void nested_if_inplace_segv(int n, double a, const double *p, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[3] = {1.0, 2.0, 3.0};
    if (p[1] >= 0.1) {
      v[2] = x[i];
    }
    if (a > 0.1) {
      double *q = v;
      *q = x[i];
      if (a > -0.05) {
        ptri(3, p, v);
      }
    }
    y[i] = v[2];
  }
}
