// Hand-made stand-in for `adsoac --target=c bench/mapreduce.c -o mapreduce_grad.c`,
// used by `bench/run.sh --fake bench/selftest` to exercise the bench pipeline
// before the translator exists. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output (primal sweep, then a separate adjoint sweep that
// recomputes d), so its timings differ from the fused hand-written adjoint.

double loss(int n, double a, const double *restrict x,
            const double *restrict t) {
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++) {
    double d = a * x[i] - t[i];
    s += d * d;
  }
  return s;
}

double loss_vjp(int n, double a, double *a_bar, const double *restrict x,
                double *restrict x_bar, const double *restrict t,
                double *restrict t_bar, double ret_bar) {
  double s = loss(n, a, x, t);   // forward sweep
  double s_bar = ret_bar, ab = 0.0;
#pragma omp parallel for schedule(static) reduction(+: ab)
  for (int i = 0; i < n; i++) {  // reverse sweep
    double d = a * x[i] - t[i];
    double d_bar = 2.0 * d * s_bar;
    ab += d_bar * x[i];
    x_bar[i] += d_bar * a;
    t_bar[i] += -d_bar;
  }
  *a_bar += ab;
  return s;
}

double loss_jvp(int n, double a, double a_dot, const double *restrict x,
                const double *restrict x_dot, const double *restrict t,
                const double *restrict t_dot, double *ret_dot) {
  double s = 0.0, s_dot = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s, s_dot)
  for (int i = 0; i < n; i++) {
    double d = a * x[i] - t[i];
    double d_dot = a_dot * x[i] + a * x_dot[i] - t_dot[i];
    s += d * d;
    s_dot += 2.0 * d * d_dot;
  }
  *ret_dot = s_dot;
  return s;
}
