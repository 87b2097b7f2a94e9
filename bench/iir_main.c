// Timing driver for bench/iir.c. Links four objects:
//   iir_seq          bench/iir.c compiled by cc directly (-Diir=iir_seq, no OpenMP)
//   iir, iir_vjp, iir_jvp   adsoac's translation (or a --fake stand-in)
//   iir_hand         bench/iir_hand.c
// Usage: iir_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// The timed input: a in (-0.99, 0.99), so the recurrence y_i = a[i] y_{i-1} + b[i]
// is stable and forgets its past, b in [-1, 1), w in [0.5, 1.5): y and the
// adjoints stay of moderate size (|y| < 4 at n = 10^7). Small n (1 and 7) is checked
// once, every index against finite differences.
#include "harness.h"

double iir_seq(int n, const double *a, const double *b, const double *w);
double iir(int n, const double *a, const double *b, const double *w);
double iir_vjp(int n, const double *a, double *a_bar, const double *b, double *b_bar,
               const double *w, double *w_bar, double ret_bar);
double iir_jvp(int n, const double *a, const double *a_dot, const double *b,
               const double *b_dot, const double *w, const double *w_dot, double *ret_dot);
double iir_hand(int n, const double *a, double *a_bar, const double *b, double *b_bar,
                const double *w, double *w_bar, double ret_bar);

// Central differences of iir_seq at index k of p (a, b or w) against the hand
// gradient g. s is affine in each a[k], b[k], w[k] (y_k is affine in a[k], every
// later y affine in y_k), so the difference is exact up to rounding for any h; a
// large h (0.5, as bench/prod_main.c) keeps the rounding error (~ eps |s| / h) small.
static void check_fd_at(Bench *bn, const char *label, const char *what, int n,
                        double *a, double *b, double *w, double *p, int k,
                        double g, double h) {
  double v = p[k];
  p[k] = v + h; double fp = iir_seq(n, a, b, w);
  p[k] = v - h; double fm = iir_seq(n, a, b, w);
  p[k] = v;
  bench_check_fd(bn, bench_what(label, what), g, fp, fm, h);
}

// All checks on one input (label NULL: the timed input): iir, iir_vjp, iir_jvp,
// iir_hand against iir_seq; iir_vjp against the hand adjoint with non-zero initial
// adjoints and seed 1.5; the hand adjoint against finite differences at the
// indices idx[0..nidx); iir_jvp's ret_dot against <hand gradient, tangent>.
// ab, bb, wb, ah, bh, wh: scratch of length n.
static void check_all(Bench *bn, const char *label, int n, double *a, double *b,
                      double *w, const int *idx, int nidx, double *ab, double *bb,
                      double *wb, double *ah, double *bh, double *wh) {
  const double seed = 1.5;  // not 1: a dropped seed must show
  double r_seq = iir_seq(n, a, b, w);
  if (!isnormal(r_seq)) {  // overflow or underflow would make the timing meaningless
    fprintf(stderr, "warning: %s: %s %.17g is not a finite normal number\n",
            bn->name, bench_what(label, "the result"), r_seq);
    bn->warnings++;
  }
  bench_check_scalar(bn, bench_what(label, "primal iir vs sequential C"),
                     iir(n, a, b, w), r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  bench_fill(ab, n, 62, -1.0, 1.0); memcpy(ah, ab, (size_t)n * sizeof *ab);
  bench_fill(bb, n, 63, -1.0, 1.0); memcpy(bh, bb, (size_t)n * sizeof *bb);
  bench_fill(wb, n, 64, -1.0, 1.0); memcpy(wh, wb, (size_t)n * sizeof *wb);
  double r_vjp = iir_vjp(n, a, ab, b, bb, w, wb, seed);
  double r_hand = iir_hand(n, a, ah, b, bh, w, wh, seed);
  bench_check_scalar(bn, bench_what(label, "iir_vjp result vs sequential C"), r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(bn, bench_what(label, "hand result vs sequential C"), r_hand, r_seq, BENCH_RTOL);
  bench_check_array(bn, bench_what(label, "iir_vjp a_bar vs hand"), ab, ah, n, BENCH_RTOL);
  bench_check_array(bn, bench_what(label, "iir_vjp b_bar vs hand"), bb, bh, n, BENCH_RTOL);
  bench_check_array(bn, bench_what(label, "iir_vjp w_bar vs hand"), wb, wh, n, BENCH_RTOL);
  // Reference sanity: hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original.
  memset(ah, 0, (size_t)n * sizeof *ah);
  memset(bh, 0, (size_t)n * sizeof *bh);
  memset(wh, 0, (size_t)n * sizeof *wh);
  iir_hand(n, a, ah, b, bh, w, wh, 1.0);
  const double h = 0.5;
  for (int j = 0; j < nidx; j++) {
    int k = idx[j];
    check_fd_at(bn, label, "d/da (finite difference)", n, a, b, w, a, k, ah[k], h);
    check_fd_at(bn, label, "d/db (finite difference)", n, a, b, w, b, k, bh[k], h);
    check_fd_at(bn, label, "d/dw (finite difference)", n, a, b, w, w, k, wh[k], h);
  }
  // f_jvp: ret_dot must equal <grad, tangent> (tangents in ab, bb, wb).
  bench_fill(ab, n, 65, 0.0, 1.0);
  bench_fill(bb, n, 66, -1.0, 0.0);
  bench_fill(wb, n, 67, 0.0, 1.0);
  double ret_dot = 0.0;
  double r_jvp = iir_jvp(n, a, ab, b, bb, w, wb, &ret_dot);
  bench_check_scalar(bn, bench_what(label, "iir_jvp result vs sequential C"), r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(bn, bench_what(label, "iir_jvp ret_dot vs <hand gradient, tangent>"),
                     ret_dot, bench_inner(ah, ab, bh, bb, n) + bench_inner(wh, wb, NULL, NULL, n),
                     BENCH_RTOL);
}

// Small n: every index checked against finite differences; coefficients of both
// signs, some beyond 1 in magnitude (fine for 7 steps).
static void check_small(Bench *bn, const char *label, int n) {
  enum { SMALL = 7 };
  double a[SMALL], b[SMALL], w[SMALL], ab[SMALL], bb[SMALL], wb[SMALL], ah[SMALL],
      bh[SMALL], wh[SMALL];
  int idx[SMALL];
  for (int i = 0; i < n; i++) {
    a[i] = (i % 2 ? -1.0 : 1.0) * (0.5 + 0.15 * i);
    b[i] = (i % 3 ? 0.8 : -0.6) + 0.1 * i;
    w[i] = 1.25 - 0.2 * i;
    idx[i] = i;
  }
  check_all(bn, label, n, a, b, w, idx, n, ab, bb, wb, ah, bh, wh);
}

int main(int argc, char **argv) {
  Bench bn;
  bench_args(&bn, "iir", argc, argv);
  int n = bn.n;
  double *a = bench_alloc(&bn), *b = bench_alloc(&bn), *w = bench_alloc(&bn);
  double *ab = bench_alloc(&bn), *bb = bench_alloc(&bn), *wb = bench_alloc(&bn);
  double *ah = bench_alloc(&bn), *bh = bench_alloc(&bn), *wh = bench_alloc(&bn);
  bench_fill(a, n, 60, -0.99, 0.99);
  bench_fill(b, n, 61, -1.0, 1.0);
  bench_fill(w, n, 68, 0.5, 1.5);

  // ---- checks (once, before timing) ----
  int idx[3] = {0, n / 2, n - 1};
  check_all(&bn, NULL, n, a, b, w, idx, 3, ab, bb, wb, ah, bh, wh);
  check_small(&bn, "n = 1", 1);
  check_small(&bn, "n = 7", 7);

  // ---- timing ----
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&bn, t_seq, iir_seq(n, a, b, w));
  BENCH_TIME(&bn, t_pri, iir(n, a, b, w));
  BENCH_TIME(&bn, t_vjp, iir_vjp(n, a, ab, b, bb, w, wb, 1.0));
  BENCH_TIME(&bn, t_hand, iir_hand(n, a, ab, b, bb, w, wb, 1.0));
  bench_row(&bn, t_seq, t_pri, t_vjp, t_hand);

  free(a); free(b); free(w); free(ab); free(bb); free(wb); free(ah); free(bh); free(wh);
  return bn.warnings ? 3 : 0;
}
