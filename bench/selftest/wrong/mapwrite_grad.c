// DELIBERATELY WRONG: y_bar is read but not consumed, it keeps its seed on exit instead of 0 (see bench/README.md).
// Hand-made stand-in for `adsoac --target=c bench/mapwrite.c -o mapwrite_grad.c`,
// used by `bench/run.sh --fake bench/selftest` to exercise the bench pipeline
// before the translator exists. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output (primal sweep writing y and reducing s, then a separate
// adjoint sweep that reads y back and recomputes d), so its timings differ from
// the fused hand-written adjoint. y is written, so y_bar is the seed of its
// final contents on entry and is consumed (0, the adjoint of the overwritten
// initial contents) on exit.
#include <math.h>

double fit(int n, double a, double b, const double *restrict x,
           const double *restrict t, double *restrict y) {
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++) {
    y[i] = tanh(a * x[i] + b);
    double d = y[i] - t[i];
    s += d * d;
  }
  return s;
}

double fit_vjp(int n, double a, double *a_bar, double b, double *b_bar,
               const double *restrict x, double *restrict x_bar,
               const double *restrict t, double *restrict t_bar,
               double *restrict y, double *restrict y_bar, double ret_bar) {
  double s = fit(n, a, b, x, t, y);  // forward sweep
  double s_bar = ret_bar, ab = 0.0, bb = 0.0;
#pragma omp parallel for schedule(static) reduction(+: ab, bb)
  for (int i = 0; i < n; i++) {      // reverse sweep
    double d = y[i] - t[i];
    double d_bar = 2.0 * d * s_bar;
    t_bar[i] += -d_bar;
    double yb = y_bar[i] + d_bar;
    // wrong: y_bar[i] is not reset to 0
    double z_bar = yb * (1.0 - y[i] * y[i]);
    ab += z_bar * x[i];
    bb += z_bar;
    x_bar[i] += z_bar * a;
  }
  *a_bar += ab;
  *b_bar += bb;
  return s;
}

double fit_jvp(int n, double a, double a_dot, double b, double b_dot,
               const double *restrict x, const double *restrict x_dot,
               const double *restrict t, const double *restrict t_dot,
               double *restrict y, double *restrict y_dot, double *ret_dot) {
  double s = 0.0, s_dot = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s, s_dot)
  for (int i = 0; i < n; i++) {
    double yi = tanh(a * x[i] + b);
    double yi_dot = (1.0 - yi * yi) * (a_dot * x[i] + a * x_dot[i] + b_dot);
    y[i] = yi;
    y_dot[i] = yi_dot;
    double d = yi - t[i];
    s += d * d;
    s_dot += 2.0 * d * (yi_dot - t_dot[i]);
  }
  *ret_dot = s_dot;
  return s;
}
