// FOUND by tests/difftest/difftest.py (seed 7, program l7_21; shrunk, then by hand): an
// element of a local array written under an if, then the array updated in place by a loop
// (GMM's Qtimesx with its running counter li) under a later if, makes adsoac fail in its
// front end:
//   adsoac: internal error at ir/ir_verify.c:43: IR verifier after 'lower' in f: use of a
//   value where its definition may not have run (defined in a branch or a loop body)
// (exit 3).  With the first if replaced by a block: "IR verifier after 'lower' in f: read";
// with the write unconditional, or the second if removed: translated.  Probably the bug of
// nested_if_inplace.c (the update in an if nested in the writing one).  With the element
// written through a pointer (double *q = &v[1]; *q = x[i];) and the update done by a helper
// whose loop steps a pointer, adsoac crashes instead (SIGSEGV; seed 6, program l6_57).
// e2e: sizes n=0,1,5
// e2e: array x[n] range(-1,1)
// e2e: array p[8] range(-1,1)
// e2e: array y[n] range(-1,1)

#pragma adsoac grad
void if_write_then_update(int n, const double *x, const double *p, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[3] = {1.0, 2.0, 3.0};
    if (x[i] > 0.0) {
      v[1] = x[i];
    }
    if (i % 2 == 0) {
      int li = 0;
      for (int a = 0; a < 3; a++) {
        for (int b = a + 1; b < 3; b++) {
          v[b] = v[b] + p[li] * v[a];
          li++;
        }
      }
    }
    y[i] = v[2];
  }
}
