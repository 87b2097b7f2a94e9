// Timing driver for bench/prod.c. Links four objects:
//   prod_seq          bench/prod.c compiled by cc directly (-Dprod=prod_seq, no OpenMP)
//   prod, prod_vjp, prod_jvp   adsoac's translation (or a --fake stand-in)
//   prod_hand         bench/prod_hand.c
// Usage: prod_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// The timed input has no zeros (x in [0.999, 1.001), so the product of 10^7
// factors stays finite); zero-safety is checked once on small inputs.
#include "harness.h"

double prod_seq(int n, double c, const double *x);
double prod(int n, double c, const double *x);
double prod_vjp(int n, double c, double *c_bar, const double *x, double *x_bar,
                double ret_bar);
double prod_jvp(int n, double c, double c_dot, const double *x,
                const double *x_dot, double *ret_dot);
double prod_hand(int n, double c, double *c_bar, const double *x, double *x_bar,
                 double ret_bar);

enum { SMALL = 12 };

// Zero-safety (language.md §7) on a small input with zeros: prod_vjp and
// prod_jvp against the hand adjoint, and the hand adjoint against finite
// differences (exact up to rounding: the product is linear in each factor).
static void check_small(Bench *b, const char *label, double c, double *x) {
  const int n = SMALL;
  const double seed = 1.5, h = 0.5;
  double xb[SMALL], xh[SMALL], xd[SMALL];
  double cb = 0.25, ch = 0.25;
  for (int i = 0; i < n; i++) xb[i] = xh[i] = 0.125 * (i + 1);
  double r_seq = prod_seq(n, c, x);
  double r_vjp = prod_vjp(n, c, &cb, x, xb, seed);
  double r_hand = prod_hand(n, c, &ch, x, xh, seed);
  bench_check_scalar(b, bench_what(label, "prod_vjp result vs sequential C"), r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "hand result vs sequential C"), r_hand, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "prod_vjp c_bar vs hand"), cb, ch, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "prod_vjp x_bar vs hand"), xb, xh, n, BENCH_RTOL);
  ch = 0.0;
  memset(xh, 0, sizeof xh);
  prod_hand(n, c, &ch, x, xh, 1.0);
  bench_check_fd(b, bench_what(label, "d/dc (finite difference)"), ch,
                 prod_seq(n, c + h, x), prod_seq(n, c - h, x), h);
  for (int k = 0; k < n; k++) {
    double v = x[k];
    x[k] = v + h; double fp = prod_seq(n, c, x);
    x[k] = v - h; double fm = prod_seq(n, c, x);
    x[k] = v;
    bench_check_fd(b, bench_what(label, "d/dx (finite difference)"), xh[k], fp, fm, h);
  }
  const double c_dot = 0.5;
  for (int i = 0; i < n; i++) xd[i] = 1.0 - 0.25 * i;
  double ret_dot = 0.0;
  double r_jvp = prod_jvp(n, c, c_dot, x, xd, &ret_dot);
  bench_check_scalar(b, bench_what(label, "prod_jvp result vs sequential C"), r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "prod_jvp ret_dot vs <hand gradient, tangent>"),
                     ret_dot, ch * c_dot + bench_inner(xh, xd, NULL, NULL, n), BENCH_RTOL);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "prod", argc, argv);
  int n = b.n;
  const double c = 0.75;
  double *x = bench_alloc(&b);
  double *xb = bench_alloc(&b), *xh = bench_alloc(&b);
  bench_fill(x, n, 21, 0.999, 1.001);

  // ---- checks (once, before timing) ----
  const double seed = 1.5;  // not 1: a dropped seed must show
  double r_seq = prod_seq(n, c, x);
  if (!isnormal(r_seq)) {  // overflow or underflow would make the timing meaningless
    fprintf(stderr, "warning: %s: the product %.17g is not a finite normal number\n",
            b.name, r_seq);
    b.warnings++;
  }
  bench_check_scalar(&b, "primal prod vs sequential C", prod(n, c, x), r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  double cb = 0.125, ch = 0.125;
  bench_fill(xb, n, 22, -1.0, 1.0); memcpy(xh, xb, (size_t)n * sizeof *xb);
  double r_vjp = prod_vjp(n, c, &cb, x, xb, seed);
  double r_hand = prod_hand(n, c, &ch, x, xh, seed);
  bench_check_scalar(&b, "prod_vjp result vs sequential C", r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "hand result vs sequential C", r_hand, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "prod_vjp c_bar vs hand", cb, ch, BENCH_RTOL);
  bench_check_array(&b, "prod_vjp x_bar vs hand", xb, xh, n, BENCH_RTOL);
  // Reference sanity: hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original (exact for a factor, up to rounding).
  ch = 0.0;
  memset(xh, 0, (size_t)n * sizeof *xh);
  prod_hand(n, c, &ch, x, xh, 1.0);
  const double h = 0.5;
  bench_check_fd(&b, "d/dc (finite difference)", ch, prod_seq(n, c + h, x),
                 prod_seq(n, c - h, x), h);
  int idx[3] = {0, n / 2, n - 1};
  for (int j = 0; j < 3; j++) {
    int k = idx[j];
    double v = x[k];
    x[k] = v + h; double fp = prod_seq(n, c, x);
    x[k] = v - h; double fm = prod_seq(n, c, x);
    x[k] = v;
    bench_check_fd(&b, "d/dx (finite difference)", xh[k], fp, fm, h);
  }
  // f_jvp: ret_dot must equal <grad, tangent> (tangents c_dot, xb).
  const double c_dot = 0.5;
  bench_fill(xb, n, 23, 0.0, 1.0);
  double ret_dot = 0.0;
  double r_jvp = prod_jvp(n, c, c_dot, x, xb, &ret_dot);
  bench_check_scalar(&b, "prod_jvp result vs sequential C", r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(&b, "prod_jvp ret_dot vs <hand gradient, tangent>", ret_dot,
                     ch * c_dot + bench_inner(xh, xb, NULL, NULL, n), BENCH_RTOL);
  // Zeros: exactly one (in x, or c itself), and two.
  double xs[SMALL];
  for (int i = 0; i < SMALL; i++) xs[i] = (i % 2 ? -1.0 : 1.0) * (0.75 + 0.05 * i);
  xs[5] = 0.0;
  check_small(&b, "one zero in x", c, xs);
  xs[5] = 1.25;
  check_small(&b, "zero c", 0.0, xs);
  xs[2] = 0.0; xs[9] = 0.0;
  check_small(&b, "two zeros in x", c, xs);
  xs[9] = -0.5;
  check_small(&b, "zero c and one zero in x", 0.0, xs);

  // ---- timing ----
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, prod_seq(n, c, x));
  BENCH_TIME(&b, t_pri, prod(n, c, x));
  BENCH_TIME(&b, t_vjp, prod_vjp(n, c, &cb, x, xb, 1.0));
  BENCH_TIME(&b, t_hand, prod_hand(n, c, &ch, x, xb, 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(x); free(xb); free(xh);
  return b.warnings ? 3 : 0;
}
