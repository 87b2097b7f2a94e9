// FOUND by tests/difftest/difftest.py (seed 5, program l5_16, and 7 more crashes of seeds
// 2-5; shrunk, then by hand): an if in a parallel loop's body that writes a local array,
// then, in a nested if, updates it in place in a sequential loop, makes adsoac fail in its
// front end:
//   adsoac: internal error at ir/ir_verify.c:43: IR verifier after 'lower' in f: if (value N)
// (exit 3).  With a 3-element array written through a pointer and a helper doing the update
// (the generated programs), adsoac crashes instead (SIGSEGV in arena_alloc, from
// lower_branch <- lower_if_parts <- lower_if_, recursively): nested_if_inplace_segv.c.
// Without the inner if, or with v[1] = v[1] + v[0] instead of the loop: translated.
// e2e: sizes n=0,1,5
// e2e: scalar a range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)

#pragma adsoac grad
void nested_if_inplace(int n, double a, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[2] = {1.0, 2.0};
    if (a > 0.1) {
      v[0] = x[i];
      if (a > 0.5) {
        for (int b = 1; b < 2; b++) v[b] = v[b] + v[0];
      }
    }
    y[i] = v[1];
  }
}
