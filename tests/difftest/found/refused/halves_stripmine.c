// REFUSED (adsoac exits 1), found by tests/difftest/difftest.py (legacy space), reduced by hand:
// stripmine(2) on a time loop whose maps write a state vector at offsets that move with the
// step (time_inplace.c's layers, which translates without stripmine); stripmine and in-place
// writes at moving offsets are both documented as supported.
// adsoac says:
//   error: this loop, in a sequential loop, writes 's' at an index that checkpointing
//   does not follow
//   = hint: write the array at the loop index itself (y[i] = ...) or at a*i + b with a and b
//   computed before the loop (b may move with the sequential loop's index), or write the new
//   values to another array
// e2e: sizes n=0,1,3 steps=1,2,4
// e2e: array x[n] range(-1,1)
// e2e: array s[2*n*(steps+1)+2] range(-1,1)
#include <math.h>
#pragma adsoac grad
void halves_stripmine(int n, int steps, const double *x, double *s) {
#pragma adsoac stripmine(2)
  for (int t = 0; t < steps; t++) {
    double *hs = &s[2 * n * (t + 1)], *cs = hs + n;
#pragma adsoac map
    for (int i = 0; i < 2 * n; i++) s[2 * n * (t + 1) + i] = s[2 * n * t + i];
#pragma adsoac map
    for (int i = 0; i < n; i++) {
      cs[i] = cs[i] * 0.5 + tanh(hs[i] * x[i]);
      hs[i] = tanh(cs[i]) * 1.5;
    }
  }
}
