// REFUSED (adsoac exits 1), found by tests/difftest/difftest.py (legacy space, seeds 8-9),
// reduced by hand:
// rows y[3*i + c] written through a pointer that steps along the row (double *q = y + 3*i; *q =
// ...; q++;), language.md §6's pointer views; written as q[c] = ..., or y[3*i + c] = ...,
// translated.
// adsoac says:
//   error: cannot show that the iterations write different elements of 'y'
//   = hint: write y[i], y[2*i + 1], y[i + k] (k the same in every iteration); other write
//   patterns cannot be shown to give each iteration its own element; if yours does (y[perm[i]]
//   with perm a permutation), say so with injective(y) on the pragma
// e2e: sizes n=0,1,5
// e2e: array x[n] range(-1,1)
// e2e: array y[3*n] range(-1,1)
#pragma adsoac grad
void rows_pointer_step(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double *q = y + 3 * i;
    for (int c = 0; c < 3; c++) {
      *q = x[i] * (c + 1);
      q++;
    }
  }
}
