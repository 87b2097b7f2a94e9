// Hand-written OpenMP adjoint of fit (bench/mapwrite.c), same signature and
// semantics as adsoac's fit_vjp (language.md §2.1): returns the primal, writes
// y exactly as fit does, accumulates into a_bar, b_bar, x_bar, t_bar, and
// consumes y_bar: on entry y_bar[i] is the seed of y's final contents, on exit
// it holds the adjoint of y's initial contents, which is 0 (fit overwrites
// every y[i] without reading it).
// With y = tanh(a*x[i] + b), d = y - t[i], L = ret_bar*s + sum_i y_bar[i]*y[i]:
//   yb = y_bar[i] + 2*d*ret_bar            (adjoint of y[i]: seed plus the loss)
//   zb = yb * (1 - y*y)                     (through tanh)
//   dL/dx[i] = a*zb,  dL/dt[i] = -2*d*ret_bar,
//   dL/da = sum_i x[i]*zb,  dL/db = sum_i zb.
// One fused pass: nothing is stored besides y itself.
#include <math.h>

double fit_hand(int n, double a, double *restrict a_bar, double b,
                double *restrict b_bar, const double *restrict x,
                double *restrict x_bar, const double *restrict t,
                double *restrict t_bar, double *restrict y,
                double *restrict y_bar, double ret_bar) {
  double s = 0.0, ab = 0.0, bb = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s, ab, bb)
  for (int i = 0; i < n; i++) {
    double yi = tanh(a * x[i] + b);
    y[i] = yi;
    double d = yi - t[i];
    s += d * d;
    double d_bar = 2.0 * d * ret_bar;
    double z_bar = (y_bar[i] + d_bar) * (1.0 - yi * yi);
    y_bar[i] = 0.0;
    x_bar[i] += a * z_bar;
    t_bar[i] -= d_bar;
    ab += x[i] * z_bar;
    bb += z_bar;
  }
  *a_bar += ab;
  *b_bar += bb;
  return s;
}
