// Hand-made stand-in for `adsoac --target=c bench/maxval.c -o maxval_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline before
// the translator exists. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output (forward sweep: the maximum; a sweep for the earliest
// index attaining it; then a separate adjoint sweep), tie rule of language.md §7.

double maxval(int n, double c, const double *restrict x) {
  double m = c;
#pragma omp parallel for schedule(static) reduction(max: m)
  for (int i = 0; i < n; i++)
    m = x[i] > m ? x[i] : m;
  return m;
}

// The winner: -1 for c if it attains m, else the earliest i with x[i] == m.
static int maxval_winner(int n, double c, const double *restrict x, double m) {
  if (c == m) return -1;
  int k = n;
#pragma omp parallel for schedule(static) reduction(min: k)
  for (int i = 0; i < n; i++)
    if (x[i] == m && i < k) k = i;
  return k;
}

double maxval_vjp(int n, double c, double *c_bar, const double *restrict x,
                  double *restrict x_bar, double ret_bar) {
  double m = maxval(n, c, x);    // forward sweep
  int k = maxval_winner(n, c, x, m);
  double m_bar = ret_bar;        // reverse sweep: the whole adjoint to the winner
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    x_bar[i] += i == k ? m_bar : 0.0;
  *c_bar += k < 0 ? m_bar : 0.0;
  return m;
}

double maxval_jvp(int n, double c, double c_dot, const double *restrict x,
                  const double *restrict x_dot, double *ret_dot) {
  double m = maxval(n, c, x);
  int k = maxval_winner(n, c, x, m);
  *ret_dot = k < 0 ? c_dot : x_dot[k];
  return m;
}
