// REFUSED (adsoac exits 1), found by tests/difftest/difftest.py (seed 8, program l8_29, and
// 1-6 of every 60 legacy programs; shrunk, then by hand): stripmine(2) on a time loop that
// writes y[t], an element at an offset moving with the step, besides a map (time_inplace.c's
// elements); without stripmine, translated.  Like halves_stripmine.c.
// adsoac says:
//   error: the elements this sequential loop overwrites change from iteration to iteration:
//   checkpointing them is not supported
//   = hint: give the parallel loops in the sequential loop bounds (and a write outside them an
//   index) that are the same in every iteration
// e2e: sizes n=0,1,5 steps=1,2,4
// e2e: array x[n] range(-1,1)
// e2e: array y[n+steps] range(-1,1)
#pragma adsoac grad
void yt_stripmine(int n, int steps, const double *x, double *y) {
#pragma adsoac stripmine(2)
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) y[i] = y[i] * x[i];
    y[t] = y[t] * 0.5 + 1.0;
  }
}
