// An index computed by a reduction nested in a map (x[k], k counted per row): it varies from
// one iteration to the next, so its adjoint is accumulated per iteration, not hoisted as a
// loop-invariant element (an internal error before).
// e2e: sizes n=0,1,3,6 m=1,2,4,5
// e2e: array x[n+m] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: written y
#pragma adsoac grad
void nestidx(int n, int m, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    int k = 0;
#pragma adsoac reduce(+: k)
    for (int j = 0; j < m; j++)
      k += (x[j] > 0.0) + (j < i % 3);
    y[i] = x[k] * x[i];
  }
}
