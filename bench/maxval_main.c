// Timing driver for bench/maxval.c. Links four objects:
//   maxval_seq        bench/maxval.c compiled by cc directly (-Dmaxval=maxval_seq, no OpenMP)
//   maxval, maxval_vjp, maxval_jvp   adsoac's translation (or a --fake stand-in)
//   maxval_hand       bench/maxval_hand.c
// Usage: maxval_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// The timed input has one clear maximum; the tie rule (language.md §7) is
// checked once on small inputs.
#include "harness.h"

double maxval_seq(int n, double c, const double *x);
double maxval(int n, double c, const double *x);
double maxval_vjp(int n, double c, double *c_bar, const double *x,
                  double *x_bar, double ret_bar);
double maxval_jvp(int n, double c, double c_dot, const double *x,
                  const double *x_dot, double *ret_dot);
double maxval_hand(int n, double c, double *c_bar, const double *x,
                   double *x_bar, double ret_bar);

enum { SMALL = 40 };

// The tie rule on a small input: maxval_vjp and maxval_jvp against the hand
// adjoint, and the hand adjoint against the winner of the sequential loop
// (c if it is never beaten, else the first x[i] that beats every earlier one).
// Finite differences are useless at a tie.
static void check_small(Bench *b, const char *label, double c, const double *x) {
  const int n = SMALL;
  const double seed = 1.5;
  double xb[SMALL], xh[SMALL], xw[SMALL], xd[SMALL];
  double cb = 0.25, ch = 0.25, cw = 0.25;
  for (int i = 0; i < n; i++) xb[i] = xh[i] = xw[i] = 0.125 * (i + 1);
  double m = c;
  int k = -1;
  for (int i = 0; i < n; i++)
    if (x[i] > m) {
      m = x[i];
      k = i;
    }
  if (k < 0) cw += seed;
  else xw[k] += seed;
  double r_seq = maxval_seq(n, c, x);
  double r_vjp = maxval_vjp(n, c, &cb, x, xb, seed);
  double r_hand = maxval_hand(n, c, &ch, x, xh, seed);
  bench_check_scalar(b, bench_what(label, "maxval_vjp result vs sequential C"), r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "hand result vs sequential C"), r_hand, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "maxval_vjp c_bar vs hand"), cb, ch, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "maxval_vjp x_bar vs hand"), xb, xh, n, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "hand c_bar vs sequential winner"), ch, cw, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hand x_bar vs sequential winner"), xh, xw, n, BENCH_RTOL);
  const double c_dot = -0.5;
  for (int i = 0; i < n; i++) xd[i] = 1.0 + i;
  double ret_dot = 0.0;
  double r_jvp = maxval_jvp(n, c, c_dot, x, xd, &ret_dot);
  bench_check_scalar(b, bench_what(label, "maxval_jvp result vs sequential C"), r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "maxval_jvp ret_dot vs the winner's tangent"),
                     ret_dot, k < 0 ? c_dot : xd[k], BENCH_RTOL);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "maxval", argc, argv);
  int n = b.n;
  const double c = 0.5;
  double *x = bench_alloc(&b);
  double *xb = bench_alloc(&b), *xh = bench_alloc(&b);
  bench_fill(x, n, 31, 0.0, 1.0);
  x[n / 3] = 1.25;  // one clear maximum, so finite differences see a slope

  // ---- checks (once, before timing) ----
  const double seed = 1.5;  // not 1: a dropped seed must show
  double r_seq = maxval_seq(n, c, x);
  bench_check_scalar(&b, "primal maxval vs sequential C", maxval(n, c, x), r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  double cb = 0.125, ch = 0.125;
  bench_fill(xb, n, 32, -1.0, 1.0); memcpy(xh, xb, (size_t)n * sizeof *xb);
  double r_vjp = maxval_vjp(n, c, &cb, x, xb, seed);
  double r_hand = maxval_hand(n, c, &ch, x, xh, seed);
  bench_check_scalar(&b, "maxval_vjp result vs sequential C", r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "hand result vs sequential C", r_hand, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "maxval_vjp c_bar vs hand", cb, ch, BENCH_RTOL);
  bench_check_array(&b, "maxval_vjp x_bar vs hand", xb, xh, n, BENCH_RTOL);
  // Reference sanity: hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original, at the maximum and elsewhere.
  ch = 0.0;
  memset(xh, 0, (size_t)n * sizeof *xh);
  maxval_hand(n, c, &ch, x, xh, 1.0);
  const double h = 0.125;
  bench_check_fd(&b, "d/dc (finite difference)", ch, maxval_seq(n, c + h, x),
                 maxval_seq(n, c - h, x), h);
  int idx[4] = {0, n / 3, n / 2, n - 1};
  for (int j = 0; j < 4; j++) {
    int k = idx[j];
    double v = x[k];
    x[k] = v + h; double fp = maxval_seq(n, c, x);
    x[k] = v - h; double fm = maxval_seq(n, c, x);
    x[k] = v;
    bench_check_fd(&b, "d/dx (finite difference)", xh[k], fp, fm, h);
  }
  // f_jvp: ret_dot must equal <grad, tangent> (tangents c_dot, xb).
  const double c_dot = 0.5;
  bench_fill(xb, n, 33, 0.0, 1.0);
  double ret_dot = 0.0;
  double r_jvp = maxval_jvp(n, c, c_dot, x, xb, &ret_dot);
  bench_check_scalar(&b, "maxval_jvp result vs sequential C", r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "maxval_jvp ret_dot vs <hand gradient, tangent>", ret_dot,
                     ch * c_dot + bench_inner(xh, xb, NULL, NULL, n), BENCH_RTOL);
  // Ties: three equal maxima in the second half (the earliest wins), then c
  // equal to them (c wins), then c above every element.
  double xs[SMALL];
  for (int i = 0; i < SMALL; i++) xs[i] = 0.01 * i;
  xs[23] = xs[31] = xs[37] = 9.0;
  check_small(&b, "ties in x", c, xs);
  check_small(&b, "c ties the maximum", 9.0, xs);
  check_small(&b, "c above every element", 10.0, xs);

  // ---- timing ----
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, maxval_seq(n, c, x));
  BENCH_TIME(&b, t_pri, maxval(n, c, x));
  BENCH_TIME(&b, t_vjp, maxval_vjp(n, c, &cb, x, xb, 1.0));
  BENCH_TIME(&b, t_hand, maxval_hand(n, c, &ch, x, xb, 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(x); free(xb); free(xh);
  return b.warnings ? 3 : 0;
}
