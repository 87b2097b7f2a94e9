// Adjoint updates from a sequential loop inside a parallel loop's body: every thread adds to
// a_bar[j] and a_bar[0]; with x = 1 each must come out exactly 2n, n (integers), whatever
// the number of threads (a lost update shows).
#pragma adsoac grad
double f(int n, int k, const double *a, const double *x) {
  double total = 0.0;
#pragma adsoac reduce(+: total)
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < k; j++)
      s += a[j] * x[i] + a[0] * x[i];
    total += s;
  }
  return total;
}

// The same through a nested reduction: a_bar[j] += x[i] for every i and j (exactly n with
// x = 1). The reverse loop accumulates a_bar in a copy per thread when the section the
// indices reach is small, with atomics when it is large (k = 70000 > ADSOAC_PRIVATE_BINS).
#pragma adsoac grad
double g(int n, int k, const double *a, const double *x) {
  double total = 0.0;
#pragma adsoac reduce(+: total)
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = 0; j < k; j++)
      s += a[j] * x[i];
    total += s;
  }
  return total;
}
