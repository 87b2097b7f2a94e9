// Timing driver for bench/scanadd.c. Links four objects:
//   cumloss_seq          bench/scanadd.c compiled by cc directly (-Dcumloss=cumloss_seq, no OpenMP)
//   cumloss, cumloss_vjp, cumloss_jvp   adsoac's translation (or a --fake stand-in)
//   cumloss_hand         bench/scanadd_hand.c
// Usage: scanadd_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// The timed input: x[0] = 4 sqrt(n) (a starting level), the other x in [-1, 1),
// so A_i is that level plus a random walk of sd sqrt(i / 3) <= 0.15 times the
// level: positive (within [0.96, 1.13] times the level at n = 10^7), and s ~ 16 n^2
// is finite. With A > 0 and w in
// [0.5, 1.5) the adjoint suffix sums sum_{i >= j} 2 w[i] A_i never cancel: a
// random walk through 0 would leave entries near 0 that only rounding decides.
// Small n (1 and 7) is checked once, every index against finite differences.
#include "harness.h"

double cumloss_seq(int n, const double *x, const double *w);
double cumloss(int n, const double *x, const double *w);
double cumloss_vjp(int n, const double *x, double *x_bar, const double *w,
                   double *w_bar, double ret_bar);
double cumloss_jvp(int n, const double *x, const double *x_dot, const double *w,
                   const double *w_dot, double *ret_dot);
double cumloss_hand(int n, const double *x, double *x_bar, const double *w,
                    double *w_bar, double ret_bar);

// Central differences of cumloss_seq at index k of a (x or w) against the hand
// gradient g. s is quadratic in each x[k] and linear in each w[k], so the central
// difference is exact up to rounding for any h; the rounding of the sequential sum
// (up to ~ sqrt(n) eps |s| once a change reaches the early partial sums) divided
// by 2h must stay below the tolerance (1e-6 max(|g|, 1)), hence the large h at
// n = 10^7 (main).
static void check_fd_at(Bench *b, const char *label, const char *what, int n,
                        double *x, double *w, double *a, int k, double g, double h) {
  double v = a[k];
  a[k] = v + h; double fp = cumloss_seq(n, x, w);
  a[k] = v - h; double fm = cumloss_seq(n, x, w);
  a[k] = v;
  bench_check_fd(b, bench_what(label, what), g, fp, fm, h);
}

// All checks on one input (label NULL: the timed input): cumloss, cumloss_vjp,
// cumloss_jvp, cumloss_hand against cumloss_seq; cumloss_vjp against the hand
// adjoint with non-zero initial adjoints and seed 1.5; the hand adjoint against
// finite differences (steps hx, hw) at the indices idx[0..nidx); cumloss_jvp's
// ret_dot against <hand gradient, tangent>. The initial adjoints lie in
// [ux/2, ux) and [uw/2, uw): positive like the gradients at the timed input (no
// cancellation, which would leave only rounding) and of their size (at the last
// index), so overwriting instead of accumulating shows. xb, wb, xh, wh: scratch
// of length n.
static void check_all(Bench *b, const char *label, int n, double *x, double *w,
                      const int *idx, int nidx, double hx, double hw, double ux,
                      double uw, double *xb, double *wb, double *xh, double *wh) {
  const double seed = 1.5;  // not 1: a dropped seed must show
  double r_seq = cumloss_seq(n, x, w);
  if (!isnormal(r_seq)) {  // overflow or underflow would make the timing meaningless
    fprintf(stderr, "warning: %s: %s %.17g is not a finite normal number\n",
            b->name, bench_what(label, "the result"), r_seq);
    b->warnings++;
  }
  bench_check_scalar(b, bench_what(label, "primal cumloss vs sequential C"),
                     cumloss(n, x, w), r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  bench_fill(xb, n, 42, 0.5 * ux, ux); memcpy(xh, xb, (size_t)n * sizeof *xb);
  bench_fill(wb, n, 43, 0.5 * uw, uw); memcpy(wh, wb, (size_t)n * sizeof *wb);
  double r_vjp = cumloss_vjp(n, x, xb, w, wb, seed);
  double r_hand = cumloss_hand(n, x, xh, w, wh, seed);
  bench_check_scalar(b, bench_what(label, "cumloss_vjp result vs sequential C"), r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "hand result vs sequential C"), r_hand, r_seq, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "cumloss_vjp x_bar vs hand"), xb, xh, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "cumloss_vjp w_bar vs hand"), wb, wh, n, BENCH_RTOL);
  // Reference sanity: hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original.
  memset(xh, 0, (size_t)n * sizeof *xh);
  memset(wh, 0, (size_t)n * sizeof *wh);
  cumloss_hand(n, x, xh, w, wh, 1.0);
  for (int j = 0; j < nidx; j++) {
    int k = idx[j];
    check_fd_at(b, label, "d/dx (finite difference)", n, x, w, x, k, xh[k], hx);
    check_fd_at(b, label, "d/dw (finite difference)", n, x, w, w, k, wh[k], hw);
  }
  // f_jvp: ret_dot must equal <grad, tangent> (tangents in xb, wb).
  bench_fill(xb, n, 44, 0.0, 1.0);
  bench_fill(wb, n, 45, -1.0, 0.0);
  double ret_dot = 0.0;
  double r_jvp = cumloss_jvp(n, x, xb, w, wb, &ret_dot);
  bench_check_scalar(b, bench_what(label, "cumloss_jvp result vs sequential C"), r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "cumloss_jvp ret_dot vs <hand gradient, tangent>"),
                     ret_dot, bench_inner(xh, xb, wh, wb, n), BENCH_RTOL);
}

// Small n: every index checked against finite differences.
static void check_small(Bench *b, const char *label, int n) {
  enum { SMALL = 7 };
  double x[SMALL], w[SMALL], xb[SMALL], wb[SMALL], xh[SMALL], wh[SMALL];
  int idx[SMALL];
  for (int i = 0; i < n; i++) {
    x[i] = (i % 3 ? 0.6 : -0.9) + 0.15 * i;
    w[i] = 1.25 - 0.1 * i;
    idx[i] = i;
  }
  check_all(b, label, n, x, w, idx, n, 0.5, 0.5, 1.0, 1.0, xb, wb, xh, wh);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "scanadd", argc, argv);
  int n = b.n;
  double *x = bench_alloc(&b), *w = bench_alloc(&b);
  double *xb = bench_alloc(&b), *wb = bench_alloc(&b);
  double *xh = bench_alloc(&b), *wh = bench_alloc(&b);
  bench_fill(x, n, 40, -1.0, 1.0);
  x[0] = 4.0 * sqrt((double)n);
  bench_fill(w, n, 41, 0.5, 1.5);

  // ---- checks (once, before timing) ----
  // Steps 1024: the smallest gradients checked, d s/d x[n-1] = 2 w A ~ 10^4 and
  // d s/d w[k] = A_k^2, against rounding of ~ sqrt(n) ulp(s) ~ 10^2 at n = 10^7.
  int idx[3] = {0, n / 2, n - 1};
  // Initial adjoints of the size of the last gradients: 2 w A and A^2 with A ~ x[0].
  check_all(&b, NULL, n, x, w, idx, 3, 1024.0, 1024.0, 2.0 * x[0], x[0] * x[0],
            xb, wb, xh, wh);
  check_small(&b, "n = 1", 1);
  check_small(&b, "n = 7", 7);

  // ---- timing ----
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, cumloss_seq(n, x, w));
  BENCH_TIME(&b, t_pri, cumloss(n, x, w));
  BENCH_TIME(&b, t_vjp, cumloss_vjp(n, x, xb, w, wb, 1.0));
  BENCH_TIME(&b, t_hand, cumloss_hand(n, x, xb, w, wb, 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(x); free(w); free(xb); free(wb); free(xh); free(wh);
  return b.warnings ? 3 : 0;
}
