// Timing driver for bench/mapreduce.c. Links four objects:
//   loss_seq          bench/mapreduce.c compiled by cc directly (-Dloss=loss_seq, no OpenMP)
//   loss, loss_vjp, loss_jvp   adsoac's translation (or a --fake stand-in)
//   loss_hand         bench/mapreduce_hand.c
// Usage: mapreduce_bench [N [REPS]]. Prints one table row; warnings go to stderr.
#include "harness.h"

double loss_seq(int n, double a, const double *x, const double *t);
double loss(int n, double a, const double *x, const double *t);
double loss_vjp(int n, double a, double *a_bar, const double *x, double *x_bar,
                const double *t, double *t_bar, double ret_bar);
double loss_jvp(int n, double a, double a_dot, const double *x,
                const double *x_dot, const double *t, const double *t_dot,
                double *ret_dot);
double loss_hand(int n, double a, double *a_bar, const double *x, double *x_bar,
                 const double *t, double *t_bar, double ret_bar);

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "mapreduce", argc, argv);
  int n = b.n;
  const double a = 0.75;
  double *x = bench_alloc(&b), *t = bench_alloc(&b);
  double *xb = bench_alloc(&b), *tb = bench_alloc(&b);
  double *xh = bench_alloc(&b), *th = bench_alloc(&b);
  bench_fill(x, n, 11, 0.0, 1.0);
  bench_fill(t, n, 12, 0.0, 1.0);

  // ---- checks (once, before timing) ----
  const double seed = 1.5;  // not 1: a dropped seed must show
  double r_seq = loss_seq(n, a, x, t);
  bench_check_scalar(&b, "primal loss vs sequential C", loss(n, a, x, t), r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  double ab = 0.125, ah = 0.125;
  bench_fill(xb, n, 13, -1.0, 1.0); memcpy(xh, xb, (size_t)n * sizeof *xb);
  bench_fill(tb, n, 14, -1.0, 1.0); memcpy(th, tb, (size_t)n * sizeof *tb);
  double r_vjp = loss_vjp(n, a, &ab, x, xb, t, tb, seed);
  double r_hand = loss_hand(n, a, &ah, x, xh, t, th, seed);
  bench_check_scalar(&b, "loss_vjp result vs sequential C", r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "hand result vs sequential C", r_hand, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "loss_vjp a_bar vs hand", ab, ah, BENCH_RTOL);
  bench_check_array(&b, "loss_vjp x_bar vs hand", xb, xh, n, BENCH_RTOL);
  bench_check_array(&b, "loss_vjp t_bar vs hand", tb, th, n, BENCH_RTOL);
  // Reference sanity: hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original (exact for a quadratic, up to rounding).
  ah = 0.0;
  memset(xh, 0, (size_t)n * sizeof *xh);
  memset(th, 0, (size_t)n * sizeof *th);
  loss_hand(n, a, &ah, x, xh, t, th, 1.0);
  const double h = 0.5;
  bench_check_fd(&b, "d/da (finite difference)", ah, loss_seq(n, a + h, x, t),
                 loss_seq(n, a - h, x, t), h);
  int idx[3] = {0, n / 2, n - 1};
  for (int j = 0; j < 3; j++) {
    int k = idx[j];
    double v = x[k];
    x[k] = v + h; double fp = loss_seq(n, a, x, t);
    x[k] = v - h; double fm = loss_seq(n, a, x, t);
    x[k] = v;
    bench_check_fd(&b, "d/dx (finite difference)", xh[k], fp, fm, h);
    v = t[k];
    t[k] = v + h; fp = loss_seq(n, a, x, t);
    t[k] = v - h; fm = loss_seq(n, a, x, t);
    t[k] = v;
    bench_check_fd(&b, "d/dt (finite difference)", th[k], fp, fm, h);
  }
  // f_jvp: ret_dot must equal <grad, tangent> (tangents a_dot, xb, tb).
  const double a_dot = 0.5;
  bench_fill(xb, n, 15, 0.0, 1.0);
  bench_fill(tb, n, 16, 0.0, 1.0);
  double ret_dot = 0.0;
  double r_jvp = loss_jvp(n, a, a_dot, x, xb, t, tb, &ret_dot);
  bench_check_scalar(&b, "loss_jvp result vs sequential C", r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "loss_jvp ret_dot vs <hand gradient, tangent>", ret_dot,
                     ah * a_dot + bench_inner(xh, xb, th, tb, n), BENCH_RTOL);

  // ---- timing ----
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, loss_seq(n, a, x, t));
  BENCH_TIME(&b, t_pri, loss(n, a, x, t));
  BENCH_TIME(&b, t_vjp, loss_vjp(n, a, &ab, x, xb, t, tb, 1.0));
  BENCH_TIME(&b, t_hand, loss_hand(n, a, &ah, x, xb, t, tb, 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(x); free(t); free(xb); free(tb); free(xh); free(th);
  return b.warnings ? 3 : 0;
}
