// FOUND by tests/difftest/difftest.py (seed 1, programs l1_0, l1_1, l1_7, l1_9, l1_10, l1_15,
// l1_16: a third of the legacy programs; shrunk, then by hand): a sequential loop in a
// parallel loop's body that fills a local array with a value read from an array at an
// index the parallel loop does not change (p[k], p[0]) makes adsoac fail:
//   adsoac: internal error at ir/ir_verify.c:43: IR verifier after 'vjp' in f_vjp: use of a
//   value where its definition may not have run (defined in a branch or a loop body)
// (exit 3).  q[a] = c + x[i] (c a scalar parameter) or p[a] + x[i] translate.
// difftest.py --avoid inv-fill leaves such reads out of the loops that fill local arrays.
// e2e: sizes n=0,1,5
// e2e: int k = 3
// e2e: array x[n] range(-1,1)
// e2e: array p[8] range(-1,1)

#pragma adsoac grad
double invariant_fill(int n, int k, const double *x, const double *p) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double q[3];
    for (int a = 0; a < 3; a++)
      q[a] = p[k] + x[i];
    s += q[0] * q[2];
  }
  return s;
}
