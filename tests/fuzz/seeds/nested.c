// fuzz seed: nesting, sequential loops, function-level control flow
#pragma adsoac grad
double nest(int n, int m, const double *A, const double *x, double *y) {
  double tot = 0.0;
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double r = 0.0;
#pragma adsoac reduce(+: r)
    for (int j = 0; j < m; j++)
      r += A[i * m + j] * x[j];
    y[i] = r;
  }
  for (int it = 0; it < 3; it++) {
#pragma adsoac reduce(+: tot)
    for (int i = 0; i < n; i++)
      tot += y[i];
  }
  if (n > 0) return tot;
  return 0;
}
