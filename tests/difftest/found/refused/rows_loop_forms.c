// REFUSED (adsoac exits 1), found by tests/difftest/difftest.py (legacy space), reduced by hand:
// rows y[d*i + c] written by a nested loop that counts down (also: while, do); the same loop
// counting up (and <=, !=) is accepted, as README's dependence test promises for y[nf*i + k]
// with k over [0, nf).
// adsoac says:
//   error: cannot show that the iterations write different elements of 'y'
//   = hint: write y[i], y[2*i + 1], y[i + k] (k the same in every iteration); other write
//   patterns cannot be shown to give each iteration its own element; if yours does (y[perm[i]]
//   with perm a permutation), say so with injective(y) on the pragma
// e2e: sizes n=0,1,5 d=1,2,3
// e2e: array x[n] range(-1,1)
// e2e: array y[n*d] range(-1,1)
#pragma adsoac grad
void rows_loop_forms(int n, int d, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    for (int c = d - 1; c >= 0; c--) y[d * i + c] = x[i] * (c + 1);
}
