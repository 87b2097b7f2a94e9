// Timing driver for bench/matscan.c. Links four objects:
//   matscan_seq          bench/matscan.c compiled by cc directly (-Dmatscan=matscan_seq, no OpenMP)
//   matscan, matscan_vjp, matscan_jvp   adsoac's translation (or a --fake stand-in)
//   matscan_hand         bench/matscan_hand.c
// Usage: matscan_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// The timed input: the entries of P_i in [-1e-4, 1e-4), so M_i = I + P_i is near
// the identity and the prefix products R_i stay near I (the entries of log R_i
// are sums of i terms of sd ~6e-5: ~0.2 at n = 10^7; max |R_i - I| is 0.49 there):
// finite, no cancellation in the adjoints; w in [0.5, 1.5). Small n (1 and 7) is checked
// once, every index against finite differences, with P_i far from 0.
#include "harness.h"

double matscan_seq(int n, const double *p00, const double *p01, const double *p10,
                   const double *p11, const double *w);
double matscan(int n, const double *p00, const double *p01, const double *p10,
               const double *p11, const double *w);
double matscan_vjp(int n, const double *p00, double *p00_bar, const double *p01,
                   double *p01_bar, const double *p10, double *p10_bar,
                   const double *p11, double *p11_bar, const double *w, double *w_bar,
                   double ret_bar);
double matscan_jvp(int n, const double *p00, const double *p00_dot, const double *p01,
                   const double *p01_dot, const double *p10, const double *p10_dot,
                   const double *p11, const double *p11_dot, const double *w,
                   const double *w_dot, double *ret_dot);
double matscan_hand(int n, const double *p00, double *p00_bar, const double *p01,
                    double *p01_bar, const double *p10, double *p10_bar,
                    const double *p11, double *p11_bar, const double *w, double *w_bar,
                    double ret_bar);

enum { NA = 5 };  // the active arrays: p00, p01, p10, p11, w
static const char *const NAMES[NA] = {"p00", "p01", "p10", "p11", "w"};

static double f_seq(int n, double *const *in) {
  return matscan_seq(n, in[0], in[1], in[2], in[3], in[4]);
}

// Central differences of matscan_seq at index k of in[j] against the hand
// gradient g. s is affine in each entry of each P_k (R_i is multilinear in the
// factors) and in each w[k], so the difference is exact up to rounding for any h;
// the rounding of the sequential sum (~ sqrt(n) eps |s| once a change reaches the
// early partial sums) divided by 2h must stay below the tolerance
// (1e-6 max(|g|, 1)), hence a large h for w at n = 10^7 (main).
static void check_fd_at(Bench *b, const char *label, int n, double *const *in,
                        int j, int k, double g, double h) {
  char what[64];
  snprintf(what, sizeof what, "d/d%s (finite difference)", NAMES[j]);
  double v = in[j][k];
  in[j][k] = v + h; double fp = f_seq(n, in);
  in[j][k] = v - h; double fm = f_seq(n, in);
  in[j][k] = v;
  bench_check_fd(b, bench_what(label, what), g, fp, fm, h);
}

// All checks on one input (label NULL: the timed input): matscan, matscan_vjp,
// matscan_jvp, matscan_hand against matscan_seq; matscan_vjp against the hand
// adjoint with non-zero initial adjoints and seed 1.5; the hand adjoint against
// finite differences (step hp for the P entries, hw for w) at the indices
// idx[0..nidx); matscan_jvp's ret_dot against <hand gradient, tangent>.
// in: the inputs p00, p01, p10, p11, w; vb, hb: NA scratch arrays of length n each.
static void check_all(Bench *b, const char *label, int n, double *const *in,
                      const int *idx, int nidx, double hp, double hw,
                      double *const *vb, double *const *hb) {
  const double seed = 1.5;  // not 1: a dropped seed must show
  char what[96];
  double r_seq = f_seq(n, in);
  if (!isnormal(r_seq)) {  // overflow or underflow would make the timing meaningless
    fprintf(stderr, "warning: %s: %s %.17g is not a finite normal number\n",
            b->name, bench_what(label, "the result"), r_seq);
    b->warnings++;
  }
  bench_check_scalar(b, bench_what(label, "primal matscan vs sequential C"),
                     matscan(n, in[0], in[1], in[2], in[3], in[4]), r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  for (int j = 0; j < NA; j++) {
    bench_fill(vb[j], n, 72 + j, -1.0, 1.0);
    memcpy(hb[j], vb[j], (size_t)n * sizeof *vb[j]);
  }
  double r_vjp = matscan_vjp(n, in[0], vb[0], in[1], vb[1], in[2], vb[2], in[3], vb[3],
                             in[4], vb[4], seed);
  double r_hand = matscan_hand(n, in[0], hb[0], in[1], hb[1], in[2], hb[2], in[3], hb[3],
                               in[4], hb[4], seed);
  bench_check_scalar(b, bench_what(label, "matscan_vjp result vs sequential C"), r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "hand result vs sequential C"), r_hand, r_seq, BENCH_RTOL);
  for (int j = 0; j < NA; j++) {
    snprintf(what, sizeof what, "matscan_vjp %s_bar vs hand", NAMES[j]);
    bench_check_array(b, bench_what(label, what), vb[j], hb[j], n, BENCH_RTOL);
  }
  // Reference sanity: hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original.
  for (int j = 0; j < NA; j++) memset(hb[j], 0, (size_t)n * sizeof *hb[j]);
  matscan_hand(n, in[0], hb[0], in[1], hb[1], in[2], hb[2], in[3], hb[3], in[4], hb[4], 1.0);
  for (int m = 0; m < nidx; m++)
    for (int j = 0; j < NA; j++)
      check_fd_at(b, label, n, in, j, idx[m], hb[j][idx[m]], j < 4 ? hp : hw);
  // f_jvp: ret_dot must equal <grad, tangent> (tangents in vb).
  for (int j = 0; j < NA; j++)
    bench_fill(vb[j], n, 77 + j, j % 2 ? -1.0 : 0.0, j % 2 ? 0.0 : 1.0);
  double ret_dot = 0.0;
  double r_jvp = matscan_jvp(n, in[0], vb[0], in[1], vb[1], in[2], vb[2], in[3], vb[3],
                             in[4], vb[4], &ret_dot);
  double want = bench_inner(hb[0], vb[0], hb[1], vb[1], n) +
                bench_inner(hb[2], vb[2], hb[3], vb[3], n) +
                bench_inner(hb[4], vb[4], NULL, NULL, n);
  bench_check_scalar(b, bench_what(label, "matscan_jvp result vs sequential C"), r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "matscan_jvp ret_dot vs <hand gradient, tangent>"),
                     ret_dot, want, BENCH_RTOL);
}

// Small n: every index checked against finite differences; factors far from the
// identity (and from each other's transposes), entries of both signs.
static void check_small(Bench *b, const char *label, int n) {
  enum { SMALL = 7 };
  double a[NA][SMALL], v[NA][SMALL], h[NA][SMALL];
  double *in[NA], *vb[NA], *hb[NA];
  int idx[SMALL];
  for (int i = 0; i < n; i++) {
    a[0][i] = 0.3 - 0.1 * i;
    a[1][i] = (i % 2 ? 0.6 : -0.4) + 0.05 * i;
    a[2][i] = (i % 3 ? -0.5 : 0.7) - 0.03 * i;
    a[3][i] = -0.2 + 0.08 * i;
    a[4][i] = 1.25 - 0.2 * i;
    idx[i] = i;
  }
  for (int j = 0; j < NA; j++) in[j] = a[j], vb[j] = v[j], hb[j] = h[j];
  check_all(b, label, n, in, idx, n, 0.5, 0.5, vb, hb);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "matscan", argc, argv);
  int n = b.n;
  double *in[NA], *vb[NA], *hb[NA];
  for (int j = 0; j < NA; j++) {
    in[j] = bench_alloc(&b);
    vb[j] = bench_alloc(&b);
    hb[j] = bench_alloc(&b);
    if (j < 4) bench_fill(in[j], n, 70 + j, -1e-4, 1e-4);
  }
  bench_fill(in[4], n, 69, 0.5, 1.5);

  // ---- checks (once, before timing) ----
  // Steps: 0.5 for the P entries (d s/d P_k is at least ~w |C| ~ 0.25), 64 for w
  // (d s/d w[k] = <C, R_k> ~ 1, against rounding of ~ sqrt(n) ulp(s) ~ 10^-6 at n = 10^7).
  int idx[3] = {0, n / 2, n - 1};
  check_all(&b, NULL, n, in, idx, 3, 0.5, 64.0, vb, hb);
  check_small(&b, "n = 1", 1);
  check_small(&b, "n = 7", 7);

  // ---- timing ----
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, f_seq(n, in));
  BENCH_TIME(&b, t_pri, matscan(n, in[0], in[1], in[2], in[3], in[4]));
  BENCH_TIME(&b, t_vjp, matscan_vjp(n, in[0], vb[0], in[1], vb[1], in[2], vb[2], in[3],
                                    vb[3], in[4], vb[4], 1.0));
  BENCH_TIME(&b, t_hand, matscan_hand(n, in[0], vb[0], in[1], vb[1], in[2], vb[2], in[3],
                                      vb[3], in[4], vb[4], 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  for (int j = 0; j < NA; j++) { free(in[j]); free(vb[j]); free(hb[j]); }
  return b.warnings ? 3 : 0;
}
