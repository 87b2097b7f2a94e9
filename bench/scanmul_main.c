// Timing driver for bench/scanmul.c. Links four objects:
//   cumprod_seq          bench/scanmul.c compiled by cc directly (-Dcumprod=cumprod_seq, no OpenMP)
//   cumprod, cumprod_vjp, cumprod_jvp   adsoac's translation (or a --fake stand-in)
//   cumprod_hand         bench/scanmul_hand.c
// Usage: scanmul_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// The timed input has no zeros: x in [0.9999, 1.0001), so the prefix products
// p_i = c x[0] ... x[i] stay within a few tenths of c (log p_i - log c is a sum of
// i terms of sd ~6e-5: ~0.2 at n = 10^7), w in [0.5, 1.5). Small n (1 and 7) is
// checked once, every index against finite differences, n = 7 also with zeros
// (one in x, c = 0, two in x): the scan's adjoint must stay exact there.
#include "harness.h"

double cumprod_seq(int n, double c, const double *x, const double *w);
double cumprod(int n, double c, const double *x, const double *w);
double cumprod_vjp(int n, double c, double *c_bar, const double *x, double *x_bar,
                   const double *w, double *w_bar, double ret_bar);
double cumprod_jvp(int n, double c, double c_dot, const double *x, const double *x_dot,
                   const double *w, const double *w_dot, double *ret_dot);
double cumprod_hand(int n, double c, double *c_bar, const double *x, double *x_bar,
                    const double *w, double *w_bar, double ret_bar);

// Central differences of cumprod_seq at index k of a (x or w) against the hand
// gradient g. s is affine in c and in each x[k], w[k], so the difference is exact
// up to rounding for any h; the rounding of the sequential sum (~ sqrt(n) eps |s|
// once a change reaches the early partial sums) divided by 2h must stay below the
// tolerance (1e-6 max(|g|, 1)), hence a large h for w at n = 10^7 (main).
static void check_fd_at(Bench *b, const char *label, const char *what, int n,
                        double c, double *x, double *w, double *a, int k,
                        double g, double h) {
  double v = a[k];
  a[k] = v + h; double fp = cumprod_seq(n, c, x, w);
  a[k] = v - h; double fm = cumprod_seq(n, c, x, w);
  a[k] = v;
  bench_check_fd(b, bench_what(label, what), g, fp, fm, h);
}

// All checks on one input (label NULL: the timed input): cumprod, cumprod_vjp,
// cumprod_jvp, cumprod_hand against cumprod_seq; cumprod_vjp against the hand
// adjoint with non-zero initial adjoints and seed 1.5; the hand adjoint against
// finite differences (step h, hw for w) at the indices idx[0..nidx); cumprod_jvp's
// ret_dot against <hand gradient, tangent>. The initial adjoints lie in [0.5, 1):
// positive like the gradients at the timed input, whose entries carry a rounding
// noise of ~ sqrt(i) eps (long products): a cancellation down to ~1e-5 would leave
// only that noise. xb, wb, xh, wh: scratch of length n.
static void check_all(Bench *b, const char *label, int n, double c, double *x,
                      double *w, const int *idx, int nidx, double h, double hw,
                      double *xb, double *wb, double *xh, double *wh) {
  const double seed = 1.5;  // not 1: a dropped seed must show
  double r_seq = cumprod_seq(n, c, x, w);
  if (c != 0.0 && !isnormal(r_seq)) {  // overflow or underflow would make the timing meaningless
    fprintf(stderr, "warning: %s: %s %.17g is not a finite normal number\n",
            b->name, bench_what(label, "the result"), r_seq);
    b->warnings++;
  }
  bench_check_scalar(b, bench_what(label, "primal cumprod vs sequential C"),
                     cumprod(n, c, x, w), r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  double cb = 0.125, ch = 0.125;
  bench_fill(xb, n, 52, 0.5, 1.0); memcpy(xh, xb, (size_t)n * sizeof *xb);
  bench_fill(wb, n, 53, 0.5, 1.0); memcpy(wh, wb, (size_t)n * sizeof *wb);
  double r_vjp = cumprod_vjp(n, c, &cb, x, xb, w, wb, seed);
  double r_hand = cumprod_hand(n, c, &ch, x, xh, w, wh, seed);
  bench_check_scalar(b, bench_what(label, "cumprod_vjp result vs sequential C"), r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "hand result vs sequential C"), r_hand, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "cumprod_vjp c_bar vs hand"), cb, ch, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "cumprod_vjp x_bar vs hand"), xb, xh, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "cumprod_vjp w_bar vs hand"), wb, wh, n, BENCH_RTOL);
  // Reference sanity: hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original.
  ch = 0.0;
  memset(xh, 0, (size_t)n * sizeof *xh);
  memset(wh, 0, (size_t)n * sizeof *wh);
  cumprod_hand(n, c, &ch, x, xh, w, wh, 1.0);
  bench_check_fd(b, bench_what(label, "d/dc (finite difference)"), ch,
                 cumprod_seq(n, c + h, x, w), cumprod_seq(n, c - h, x, w), h);
  for (int j = 0; j < nidx; j++) {
    int k = idx[j];
    check_fd_at(b, label, "d/dx (finite difference)", n, c, x, w, x, k, xh[k], h);
    check_fd_at(b, label, "d/dw (finite difference)", n, c, x, w, w, k, wh[k], hw);
  }
  // f_jvp: ret_dot must equal <grad, tangent> (tangents c_dot, xb, wb).
  const double c_dot = 0.5;
  bench_fill(xb, n, 54, 0.0, 1.0);
  bench_fill(wb, n, 55, -1.0, 0.0);
  double ret_dot = 0.0;
  double r_jvp = cumprod_jvp(n, c, c_dot, x, xb, w, wb, &ret_dot);
  bench_check_scalar(b, bench_what(label, "cumprod_jvp result vs sequential C"), r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "cumprod_jvp ret_dot vs <hand gradient, tangent>"),
                     ret_dot, ch * c_dot + bench_inner(xh, xb, wh, wb, n), BENCH_RTOL);
}

// Small n: every index checked against finite differences; factors of both
// signs, off 1; zero factors where zx, zy are indices in [0, n) (-1: none).
static void check_small(Bench *b, const char *label, int n, double c, int zx, int zy) {
  enum { SMALL = 7 };
  double x[SMALL], w[SMALL], xb[SMALL], wb[SMALL], xh[SMALL], wh[SMALL];
  int idx[SMALL];
  for (int i = 0; i < n; i++) {
    x[i] = (i % 2 ? -1.0 : 1.0) * (0.7 + 0.1 * i);
    w[i] = (i % 3 ? 0.75 : -1.25) + 0.05 * i;
    idx[i] = i;
  }
  if (zx >= 0) x[zx] = 0.0;
  if (zy >= 0) x[zy] = 0.0;
  check_all(b, label, n, c, x, w, idx, n, 0.5, 0.5, xb, wb, xh, wh);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "scanmul", argc, argv);
  int n = b.n;
  const double c = 0.75;
  double *x = bench_alloc(&b), *w = bench_alloc(&b);
  double *xb = bench_alloc(&b), *wb = bench_alloc(&b);
  double *xh = bench_alloc(&b), *wh = bench_alloc(&b);
  bench_fill(x, n, 50, 0.9999, 1.0001);
  bench_fill(w, n, 51, 0.5, 1.5);

  // ---- checks (once, before timing) ----
  // Steps: 0.5 for c and x (d s/d x[k] >= ~0.4), 64 for w (d s/d w[0] = p_0 ~ 0.75,
  // against rounding of ~ sqrt(n) ulp(s) ~ 10^-6 at n = 10^7).
  int idx[3] = {0, n / 2, n - 1};
  check_all(&b, NULL, n, c, x, w, idx, 3, 0.5, 64.0, xb, wb, xh, wh);
  check_small(&b, "n = 1", 1, c, -1, -1);
  check_small(&b, "n = 7", 7, -1.25, -1, -1);
  check_small(&b, "n = 7, one zero in x", 7, -1.25, 3, -1);
  check_small(&b, "n = 7, zero c", 7, 0.0, -1, -1);
  check_small(&b, "n = 7, two zeros in x", 7, -1.25, 1, 5);

  // ---- timing ----
  double t_seq, t_pri, t_vjp, t_hand, cb = 0.0, ch = 0.0;
  BENCH_TIME(&b, t_seq, cumprod_seq(n, c, x, w));
  BENCH_TIME(&b, t_pri, cumprod(n, c, x, w));
  BENCH_TIME(&b, t_vjp, cumprod_vjp(n, c, &cb, x, xb, w, wb, 1.0));
  BENCH_TIME(&b, t_hand, cumprod_hand(n, c, &ch, x, xb, w, wb, 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(x); free(w); free(xb); free(wb); free(xh); free(wh);
  return b.warnings ? 3 : 0;
}
