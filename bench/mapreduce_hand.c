// Hand-written OpenMP adjoint of loss (bench/mapreduce.c), same signature and
// semantics as adsoac's loss_vjp (language.md §2.1): returns the primal and
// accumulates into a_bar, x_bar, t_bar. With d = a*x[i] - t[i]:
//   dL/dx[i] = 2*d*a*ret_bar,  dL/dt[i] = -2*d*ret_bar,
//   dL/da = sum_i 2*d*x[i]*ret_bar.
// One fused pass: d is recomputed, never stored.

double loss_hand(int n, double a, double *restrict a_bar,
                 const double *restrict x, double *restrict x_bar,
                 const double *restrict t, double *restrict t_bar,
                 double ret_bar) {
  double s = 0.0, ab = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s, ab)
  for (int i = 0; i < n; i++) {
    double d = a * x[i] - t[i];
    s += d * d;
    double d_bar = 2.0 * d * ret_bar;
    x_bar[i] += a * d_bar;
    t_bar[i] -= d_bar;
    ab += x[i] * d_bar;
  }
  *a_bar += ab;
  return s;
}
