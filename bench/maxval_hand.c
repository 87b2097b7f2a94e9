// Hand-written OpenMP adjoint of maxval (bench/maxval.c): what a careful
// programmer writes by hand. Same signature and semantics as adsoac's
// maxval_vjp (language.md §2.1, tie rule of §7): returns the primal; the whole
// ret_bar goes to c if c >= every x[i], else to the earliest i with x[i] == m.
// One pass finds the maximum with its earliest index (each thread scans its
// chunk, the partial results are merged: larger value wins, lower index on a
// tie, c counting as index -1); then one adjoint is accumulated.

double maxval_hand(int n, double c, double *restrict c_bar,
                   const double *restrict x, double *restrict x_bar,
                   double ret_bar) {
  double m = c;
  int k = -1;  // -1: c
#pragma omp parallel
  {
    double ml = c;
    int kl = -1;
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; i++)
      if (x[i] > ml) {
        ml = x[i];
        kl = i;
      }
#pragma omp critical
    if (ml > m || (ml == m && kl < k)) {
      m = ml;
      k = kl;
    }
  }
  if (k < 0) *c_bar += ret_bar;
  else x_bar[k] += ret_bar;
  return m;
}
