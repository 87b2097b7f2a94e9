// DELIBERATELY WRONG: x_bar is overwritten instead of accumulated (see bench/README.md).
// Hand-made stand-in for `adsoac --target=c bench/dot.c -o dot_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline before
// the translator exists. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output (primal sweep, then a separate adjoint sweep), so its
// timings differ from the fused hand-written adjoint.

double dot(int n, const double *restrict x, const double *restrict y) {
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

double dot_vjp(int n, const double *restrict x, double *restrict x_bar,
               const double *restrict y, double *restrict y_bar,
               double ret_bar) {
  double s = dot(n, x, y);       // forward sweep
  double s_bar = ret_bar;        // reverse sweep: reduce(+) spreads the adjoint
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
    x_bar[i] = s_bar * y[i];
    y_bar[i] += s_bar * x[i];
  }
  return s;
}

double dot_jvp(int n, const double *restrict x, const double *restrict x_dot,
               const double *restrict y, const double *restrict y_dot,
               double *ret_dot) {
  double s = 0.0, s_dot = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s, s_dot)
  for (int i = 0; i < n; i++) {
    s += x[i] * y[i];
    s_dot += x_dot[i] * y[i] + x[i] * y_dot[i];
  }
  *ret_dot = s_dot;
  return s;
}
