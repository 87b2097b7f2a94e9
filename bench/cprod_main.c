// Timing driver for bench/cprod.c. Links four objects:
//   cprod_seq          bench/cprod.c compiled by cc directly (-Dcprod=cprod_seq, no OpenMP)
//   cprod, cprod_vjp, cprod_jvp   adsoac's translation (or a --fake stand-in)
//   cprod_hand         bench/cprod_hand.c
// Usage: cprod_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// The timed input z_k = re[k] + i im[k] has |z_k| in [0.9999, 1.0001) and a
// uniform angle, so the product of 10^7 factors stays finite (log|P| is a sum
// of n terms of sd ~6e-5: ~0.2 at n = 10^7) and no factor is zero (the
// invertible-operator rule divides by z_k). Small n (1 and 7) is checked once.
#include "harness.h"

double cprod_seq(int n, double c, const double *re, const double *im);
double cprod(int n, double c, const double *re, const double *im);
double cprod_vjp(int n, double c, double *c_bar, const double *re, double *re_bar,
                 const double *im, double *im_bar, double ret_bar);
double cprod_jvp(int n, double c, double c_dot, const double *re, const double *re_dot,
                 const double *im, const double *im_dot, double *ret_dot);
double cprod_hand(int n, double c, double *c_bar, const double *re, double *re_bar,
                  const double *im, double *im_bar, double ret_bar);

// Central differences of cprod_seq at index k of a (re or im) against the hand
// gradient g. f is affine in each re[k], im[k] and c, so the difference is exact
// up to rounding for any h; a large h (0.5, as bench/prod_main.c) keeps the
// rounding error (~ eps * |f| / h) small.
static void check_fd_at(Bench *b, const char *label, const char *what, int n,
                        double c, double *re, double *im, double *a, int k,
                        double g, double h) {
  double v = a[k];
  a[k] = v + h; double fp = cprod_seq(n, c, re, im);
  a[k] = v - h; double fm = cprod_seq(n, c, re, im);
  a[k] = v;
  bench_check_fd(b, bench_what(label, what), g, fp, fm, h);
}

// All checks on one input (label NULL: the timed input, messages as prod's):
// cprod, cprod_vjp, cprod_jvp, cprod_hand against cprod_seq; cprod_vjp against the
// hand adjoint with non-zero initial adjoints and seed 1.5; the hand adjoint
// against finite differences at the indices idx[0..nidx); cprod_jvp's ret_dot
// against <hand gradient, tangent>. rb, ib, rh, ih, rd, id: scratch of length n
// (rd, id may alias rb, ib).
static void check_all(Bench *b, const char *label, int n, double c, double *re,
                      double *im, const int *idx, int nidx, double *rb,
                      double *ib, double *rh, double *ih, double *rd,
                      double *id) {
  const double seed = 1.5;  // not 1: a dropped seed must show
  double r_seq = cprod_seq(n, c, re, im);
  if (!isnormal(r_seq)) {  // overflow or underflow would make the timing meaningless
    fprintf(stderr, "warning: %s: %s %.17g is not a finite normal number\n",
            b->name, bench_what(label, "the result"), r_seq);
    b->warnings++;
  }
  bench_check_scalar(b, bench_what(label, "primal cprod vs sequential C"),
                     cprod(n, c, re, im), r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  double cb = 0.125, ch = 0.125;
  bench_fill(rb, n, 32, -1.0, 1.0); memcpy(rh, rb, (size_t)n * sizeof *rb);
  bench_fill(ib, n, 33, -1.0, 1.0); memcpy(ih, ib, (size_t)n * sizeof *ib);
  double r_vjp = cprod_vjp(n, c, &cb, re, rb, im, ib, seed);
  double r_hand = cprod_hand(n, c, &ch, re, rh, im, ih, seed);
  bench_check_scalar(b, bench_what(label, "cprod_vjp result vs sequential C"), r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "hand result vs sequential C"), r_hand, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "cprod_vjp c_bar vs hand"), cb, ch, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "cprod_vjp re_bar vs hand"), rb, rh, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "cprod_vjp im_bar vs hand"), ib, ih, n, BENCH_RTOL);
  // Reference sanity: hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original.
  ch = 0.0;
  memset(rh, 0, (size_t)n * sizeof *rh);
  memset(ih, 0, (size_t)n * sizeof *ih);
  cprod_hand(n, c, &ch, re, rh, im, ih, 1.0);
  const double h = 0.5;
  bench_check_fd(b, bench_what(label, "d/dc (finite difference)"), ch,
                 cprod_seq(n, c + h, re, im), cprod_seq(n, c - h, re, im), h);
  for (int j = 0; j < nidx; j++) {
    int k = idx[j];
    check_fd_at(b, label, "d/dre (finite difference)", n, c, re, im, re, k, rh[k], h);
    check_fd_at(b, label, "d/dim (finite difference)", n, c, re, im, im, k, ih[k], h);
  }
  // f_jvp: ret_dot must equal <grad, tangent> (tangents c_dot, rd, id).
  const double c_dot = 0.5;
  bench_fill(rd, n, 34, 0.0, 1.0);
  bench_fill(id, n, 35, -1.0, 0.0);
  double ret_dot = 0.0;
  double r_jvp = cprod_jvp(n, c, c_dot, re, rd, im, id, &ret_dot);
  bench_check_scalar(b, bench_what(label, "cprod_jvp result vs sequential C"), r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "cprod_jvp ret_dot vs <hand gradient, tangent>"),
                     ret_dot, ch * c_dot + bench_inner(rh, rd, ih, id, n), BENCH_RTOL);
}

// Small n: every index checked against finite differences; factors off the
// unit circle, in all four quadrants.
static void check_small(Bench *b, const char *label, int n, double c) {
  enum { SMALL = 7 };
  double re[SMALL], im[SMALL], rb[SMALL], ib[SMALL], rh[SMALL], ih[SMALL],
      rd[SMALL], id[SMALL];
  int idx[SMALL];
  for (int i = 0; i < n; i++) {
    re[i] = (i % 2 ? -1.0 : 1.0) * (0.6 + 0.1 * i);
    im[i] = (i % 3 ? 0.8 : -0.7) - 0.05 * i;
    idx[i] = i;
  }
  check_all(b, label, n, c, re, im, idx, n, rb, ib, rh, ih, rd, id);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "cprod", argc, argv);
  int n = b.n;
  const double c = 0.75;
  double *re = bench_alloc(&b), *im = bench_alloc(&b);
  double *rb = bench_alloc(&b), *ib = bench_alloc(&b);
  double *rh = bench_alloc(&b), *ih = bench_alloc(&b);
  // z_k = r_k (cos t_k + i sin t_k), t_k uniform in [0, 2 pi), r_k in [0.9999, 1.0001).
  bench_fill(rb, n, 30, 0.0, 6.283185307179586);
  bench_fill(ib, n, 31, 0.9999, 1.0001);
  for (int i = 0; i < n; i++) {
    re[i] = ib[i] * cos(rb[i]);
    im[i] = ib[i] * sin(rb[i]);
  }

  // ---- checks (once, before timing) ----
  int idx[3] = {0, n / 2, n - 1};
  check_all(&b, NULL, n, c, re, im, idx, 3, rb, ib, rh, ih, rb, ib);
  check_small(&b, "n = 1", 1, c);
  check_small(&b, "n = 7", 7, -1.25);

  // ---- timing ----
  double t_seq, t_pri, t_vjp, t_hand, cb = 0.0, ch = 0.0;
  BENCH_TIME(&b, t_seq, cprod_seq(n, c, re, im));
  BENCH_TIME(&b, t_pri, cprod(n, c, re, im));
  BENCH_TIME(&b, t_vjp, cprod_vjp(n, c, &cb, re, rb, im, ib, 1.0));
  BENCH_TIME(&b, t_hand, cprod_hand(n, c, &ch, re, rb, im, ib, 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(re); free(im); free(rb); free(ib); free(rh); free(ih);
  return b.warnings ? 3 : 0;
}
