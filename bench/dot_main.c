// Timing driver for bench/dot.c. Links four objects:
//   dot_seq           bench/dot.c compiled by cc directly (-Ddot=dot_seq, no OpenMP)
//   dot, dot_vjp, dot_jvp   adsoac's translation (or a --fake stand-in)
//   dot_hand          bench/dot_hand.c
// Usage: dot_bench [N [REPS]]. Prints one table row; warnings go to stderr.
#include "harness.h"

double dot_seq(int n, const double *x, const double *y);
double dot(int n, const double *x, const double *y);
double dot_vjp(int n, const double *x, double *x_bar, const double *y,
               double *y_bar, double ret_bar);
double dot_jvp(int n, const double *x, const double *x_dot, const double *y,
               const double *y_dot, double *ret_dot);
double dot_hand(int n, const double *x, double *x_bar, const double *y,
                double *y_bar, double ret_bar);

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "dot", argc, argv);
  int n = b.n;
  double *x = bench_alloc(&b), *y = bench_alloc(&b);
  double *xb = bench_alloc(&b), *yb = bench_alloc(&b);
  double *xh = bench_alloc(&b), *yh = bench_alloc(&b);
  bench_fill(x, n, 1, 0.0, 1.0);
  bench_fill(y, n, 2, 0.0, 1.0);

  // ---- checks (once, before timing) ----
  const double seed = 1.5;  // not 1: a dropped seed must show
  double r_seq = dot_seq(n, x, y);
  bench_check_scalar(&b, "primal dot vs sequential C", dot(n, x, y), r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  bench_fill(xb, n, 3, -1.0, 1.0); memcpy(xh, xb, (size_t)n * sizeof *xb);
  bench_fill(yb, n, 4, -1.0, 1.0); memcpy(yh, yb, (size_t)n * sizeof *yb);
  double r_vjp = dot_vjp(n, x, xb, y, yb, seed);
  double r_hand = dot_hand(n, x, xh, y, yh, seed);
  bench_check_scalar(&b, "dot_vjp result vs sequential C", r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "hand result vs sequential C", r_hand, r_seq, BENCH_RTOL);
  bench_check_array(&b, "dot_vjp x_bar vs hand", xb, xh, n, BENCH_RTOL);
  bench_check_array(&b, "dot_vjp y_bar vs hand", yb, yh, n, BENCH_RTOL);
  // Reference sanity: hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original at a few indices.
  memset(xh, 0, (size_t)n * sizeof *xh);
  memset(yh, 0, (size_t)n * sizeof *yh);
  dot_hand(n, x, xh, y, yh, 1.0);
  int idx[3] = {0, n / 2, n - 1};
  for (int j = 0; j < 3; j++) {
    int k = idx[j];
    double h = 0.5, v = x[k];
    x[k] = v + h; double fp = dot_seq(n, x, y);
    x[k] = v - h; double fm = dot_seq(n, x, y);
    x[k] = v;
    bench_check_fd(&b, "d/dx (finite difference)", xh[k], fp, fm, h);
    v = y[k];
    y[k] = v + h; fp = dot_seq(n, x, y);
    y[k] = v - h; fm = dot_seq(n, x, y);
    y[k] = v;
    bench_check_fd(&b, "d/dy (finite difference)", yh[k], fp, fm, h);
  }
  // f_jvp: ret_dot must equal <grad, tangent> (tangents in xb, yb).
  bench_fill(xb, n, 5, 0.0, 1.0);
  bench_fill(yb, n, 6, 0.0, 1.0);
  double ret_dot = 0.0;
  double r_jvp = dot_jvp(n, x, xb, y, yb, &ret_dot);
  bench_check_scalar(&b, "dot_jvp result vs sequential C", r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "dot_jvp ret_dot vs <hand gradient, tangent>", ret_dot,
                     bench_inner(xh, xb, yh, yb, n), BENCH_RTOL);

  // ---- timing ----
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, dot_seq(n, x, y));
  BENCH_TIME(&b, t_pri, dot(n, x, y));
  BENCH_TIME(&b, t_vjp, dot_vjp(n, x, xb, y, yb, 1.0));
  BENCH_TIME(&b, t_hand, dot_hand(n, x, xb, y, yb, 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(x); free(y); free(xb); free(yb); free(xh); free(yh);
  return b.warnings ? 3 : 0;
}
