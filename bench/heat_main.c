// Timing driver for bench/heat.c (and bench/heat2.c, which includes this file with
// HEAT_NAME "heat2"). Links four objects:
//   heat_seq          bench/heat.c compiled by cc directly (-Dheat=heat_seq, no OpenMP)
//   heat, heat_vjp, heat_jvp   adsoac's translation (or a --fake stand-in)
//   heat_hand         bench/heat_hand.c
// Usage: heat_bench [N [REPS]]. Prints one table row (after a '#' line saying what ran);
// warnings go to stderr.
// Problem size: N (bench/run.sh --n, default 10^7) is the number of stencil updates,
// steps = STEPS = 100 time steps over a grid of n = N / STEPS points (at least 3): the
// default run does 10^7 updates on a grid of 10^5 points (u and tmp: 0.8 MB each, in
// cache); adsoac's vjp saves u's interior once per step (100 x 0.8 MB). The n column of
// the row is the grid size n.
// u and tmp are written (language.md §2.1): heat_vjp takes the seeds of their final
// contents in u_bar, tmp_bar and leaves the adjoints of their initial contents there;
// heat_jvp takes their initial tangents in u_dot, tmp_dot and leaves the final ones.
// The timed input: k = 0.2 (stable: k <= 1/2), u0 in [-1, 1), tmp0 in [-1, 1) (only its
// boundary values survive). Every timed call (seq-C included) first restores u and tmp
// and, for vjp/hand, the seeds (4n doubles, about 2% of the 2 x 100 n of a call's work).
// Small grids and step counts are checked once, every index against finite differences.
#include "harness.h"

#ifndef HEAT_NAME
#define HEAT_NAME "heat"
#endif

void heat_seq(int n, int steps, double k, double *u, double *tmp);
void heat(int n, int steps, double k, double *u, double *tmp);
void heat_vjp(int n, int steps, double k, double *k_bar, double *u, double *u_bar,
              double *tmp, double *tmp_bar);
void heat_jvp(int n, int steps, double k, double k_dot, double *u, double *u_dot,
              double *tmp, double *tmp_dot);
void heat_hand(int n, int steps, double k, double *k_bar, double *u, double *u_bar,
               double *tmp, double *tmp_bar);

enum { STEPS = 100 };  // time steps of the timed input

// L = <us, u_final> + <ts, tmp_final> of the sequential original from (u0, tmp0, k);
// u, tmp: scratch of length n.
static double loss_seq(int n, int steps, double k, const double *u0, const double *tmp0,
                       const double *us, const double *ts, double *u, double *tmp) {
  bench_dcopy(u, u0, n);
  bench_dcopy(tmp, tmp0, n);
  heat_seq(n, steps, k, u, tmp);
  return bench_inner(us, u, ts, tmp, n);
}

// Central difference of L in p[j] (p is u0 or tmp0) against the hand derivative g.
// L is linear in u0 and tmp0 (exact for any step: 0.5) and a polynomial of degree
// steps in k (step 1e-5: truncation ~ h^2 |L'''|, rounding ~ eps |L| / h, both well
// under 1e-6 here).
static void check_fd_at(Bench *b, const char *label, const char *what, int n, int steps,
                        double k, double *u0, double *tmp0, const double *us,
                        const double *ts, double *p, int j, double g, double *u,
                        double *tmp) {
  const double h = 0.5;
  double v = p[j];
  p[j] = v + h; double fp = loss_seq(n, steps, k, u0, tmp0, us, ts, u, tmp);
  p[j] = v - h; double fm = loss_seq(n, steps, k, u0, tmp0, us, ts, u, tmp);
  p[j] = v;
  bench_check_fd(b, bench_what(label, what), g, fp, fm, h);
}

// All checks on one input (label NULL: the timed input): u and tmp of heat, heat_vjp,
// heat_jvp, heat_hand against heat_seq's; heat_vjp's k_bar, u_bar and tmp_bar on exit
// against the hand adjoint's, with seeds us, ts in [0.5, 1.5) (not 1) and an initial
// k_bar of 0.125 (accumulate, not overwrite); the hand adjoint against finite
// differences of L = <us, u_final> + <ts, tmp_final> at the indices idx[0..nidx) of
// u0 and tmp0 and in k; heat_jvp's final tangents against the hand adjoint:
// <us, u_dot> + <ts, tmp_dot> = <u_bar, u_dot0> + <tmp_bar, tmp_dot0> + k_bar k_dot.
static void check_all(Bench *b, const char *label, int n, int steps, double k,
                      double *u0, double *tmp0, const int *idx, int nidx) {
  double *us = bench_dalloc(n), *ts = bench_dalloc(n);            // seeds
  double *ur = bench_dalloc(n), *tr = bench_dalloc(n);            // sequential result
  double *u = bench_dalloc(n), *tmp = bench_dalloc(n);
  double *uh = bench_dalloc(n), *th = bench_dalloc(n);
  double *ub = bench_dalloc(n), *tb = bench_dalloc(n), *ubh = bench_dalloc(n), *tbh = bench_dalloc(n);
  double *ud0 = bench_dalloc(n), *td0 = bench_dalloc(n), *ud = bench_dalloc(n), *td = bench_dalloc(n);
  bench_fill(us, n, 82, 0.5, 1.5);
  bench_fill(ts, n, 83, 0.5, 1.5);
  bench_dcopy(ur, u0, n); bench_dcopy(tr, tmp0, n);
  heat_seq(n, steps, k, ur, tr);
  bench_dcopy(u, u0, n); bench_dcopy(tmp, tmp0, n);
  heat(n, steps, k, u, tmp);
  bench_check_array(b, bench_what(label, "primal heat u vs sequential C"), u, ur, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "primal heat tmp vs sequential C"), tmp, tr, n, BENCH_RTOL);
  // 1. vjp vs hand: seeds not 1, k_bar not 0.
  double kb = 0.125, kh = 0.125;
  bench_dcopy(u, u0, n); bench_dcopy(tmp, tmp0, n); bench_dcopy(ub, us, n); bench_dcopy(tb, ts, n);
  bench_dcopy(uh, u0, n); bench_dcopy(th, tmp0, n); bench_dcopy(ubh, us, n); bench_dcopy(tbh, ts, n);
  heat_vjp(n, steps, k, &kb, u, ub, tmp, tb);
  heat_hand(n, steps, k, &kh, uh, ubh, th, tbh);
  bench_check_array(b, bench_what(label, "heat_vjp u vs sequential C"), u, ur, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "heat_vjp tmp vs sequential C"), tmp, tr, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hand u vs sequential C"), uh, ur, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hand tmp vs sequential C"), th, tr, n, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "heat_vjp k_bar vs hand"), kb, kh, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "heat_vjp u_bar (adjoint of the initial u) vs hand"),
                    ub, ubh, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "heat_vjp tmp_bar (adjoint of the initial tmp) vs hand"),
                    tb, tbh, n, BENCH_RTOL);
  // 2. The hand adjoint (k_bar from 0) against finite differences of L.
  kh = 0.0;
  bench_dcopy(uh, u0, n); bench_dcopy(th, tmp0, n); bench_dcopy(ubh, us, n); bench_dcopy(tbh, ts, n);
  heat_hand(n, steps, k, &kh, uh, ubh, th, tbh);
  for (int j = 0; j < nidx; j++) {
    check_fd_at(b, label, "dL/du0 (finite difference)", n, steps, k, u0, tmp0, us, ts, u0,
                idx[j], ubh[idx[j]], u, tmp);
    check_fd_at(b, label, "dL/dtmp0 (finite difference)", n, steps, k, u0, tmp0, us, ts, tmp0,
                idx[j], tbh[idx[j]], u, tmp);
  }
  const double hk = 1e-5;
  bench_check_fd(b, bench_what(label, "dL/dk (finite difference)"), kh,
                 loss_seq(n, steps, k + hk, u0, tmp0, us, ts, u, tmp),
                 loss_seq(n, steps, k - hk, u0, tmp0, us, ts, u, tmp), hk);
  // 3. jvp: final tangents against the hand adjoint (the adjoint identity).
  const double k_dot = 0.5;
  bench_fill(ud0, n, 84, -1.0, 1.0); bench_dcopy(ud, ud0, n);
  bench_fill(td0, n, 85, -1.0, 1.0); bench_dcopy(td, td0, n);
  bench_dcopy(u, u0, n); bench_dcopy(tmp, tmp0, n);
  heat_jvp(n, steps, k, k_dot, u, ud, tmp, td);
  bench_check_array(b, bench_what(label, "heat_jvp u vs sequential C"), u, ur, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "heat_jvp tmp vs sequential C"), tmp, tr, n, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "heat_jvp <seed, final tangents> vs <hand adjoint, initial tangents>"),
                     bench_inner(us, ud, ts, td, n),
                     bench_inner(ubh, ud0, tbh, td0, n) + kh * k_dot, BENCH_RTOL);
  free(us); free(ts); free(ur); free(tr); free(u); free(tmp); free(uh); free(th);
  free(ub); free(tb); free(ubh); free(tbh); free(ud0); free(td0); free(ud); free(td);
}

// Small grids and step counts: every index against finite differences.
static void check_small(Bench *b, int n, int steps) {
  double u0[16], tmp0[16];
  int idx[16];
  char label[64];
  for (int i = 0; i < n; i++) {
    u0[i] = (i % 2 ? -1.0 : 1.0) * (0.3 + 0.1 * i);
    tmp0[i] = 0.7 - 0.15 * i;
    idx[i] = i;
  }
  snprintf(label, sizeof label, "n = %d, steps = %d", n, steps);
  check_all(b, label, n, steps, 0.3, u0, tmp0, idx, n);
}

// The timed state: every call restores u, tmp (and the seeds) first.
static struct {
  int n;
  double k;
  const double *u0, *tmp0, *us, *ts;
  double *u, *tmp, *ub, *tb, kb;
} T;

static void restore(int seeds) {
  bench_dcopy(T.u, T.u0, T.n);
  bench_dcopy(T.tmp, T.tmp0, T.n);
  if (seeds) {
    bench_dcopy(T.ub, T.us, T.n);
    bench_dcopy(T.tb, T.ts, T.n);
  }
}
static double time_seq(void) { restore(0); heat_seq(T.n, STEPS, T.k, T.u, T.tmp); return T.u[T.n / 2]; }
static double time_pri(void) { restore(0); heat(T.n, STEPS, T.k, T.u, T.tmp); return T.u[T.n / 2]; }
static double time_vjp(void) {
  restore(1);
  heat_vjp(T.n, STEPS, T.k, &T.kb, T.u, T.ub, T.tmp, T.tb);
  return T.ub[T.n / 2];
}
static double time_hand(void) {
  restore(1);
  heat_hand(T.n, STEPS, T.k, &T.kb, T.u, T.ub, T.tmp, T.tb);
  return T.ub[T.n / 2];
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, HEAT_NAME, argc, argv);
  int n = b.n / STEPS < 3 ? 3 : b.n / STEPS;  // grid points
  b.n = n;
  printf("# %s: grid n = %d, steps = %d (%lld stencil updates), k = 0.2\n", HEAT_NAME, n,
         STEPS, (long long)n * STEPS);
  fflush(stdout);
  const double k = 0.2;
  double *u0 = bench_dalloc(n), *tmp0 = bench_dalloc(n), *us = bench_dalloc(n), *ts = bench_dalloc(n);
  double *u = bench_dalloc(n), *tmp = bench_dalloc(n), *ub = bench_dalloc(n), *tb = bench_dalloc(n);
  bench_fill(u0, n, 80, -1.0, 1.0);
  bench_fill(tmp0, n, 81, -1.0, 1.0);

  // ---- checks (once, before timing) ----
  int idx[5] = {0, 1, n / 2, n - 2, n - 1};
  check_all(&b, NULL, n, STEPS, k, u0, tmp0, idx, 5);
  static const int small[][2] = {{1, 3}, {2, 2}, {3, 1}, {3, 4}, {7, 0}, {7, 5}, {12, 40}};
  for (size_t j = 0; j < sizeof small / sizeof small[0]; j++)
    check_small(&b, small[j][0], small[j][1]);

  // ---- timing ----
  bench_fill(us, n, 86, 0.5, 1.5);
  bench_fill(ts, n, 87, 0.5, 1.5);
  T.n = n; T.k = k; T.u0 = u0; T.tmp0 = tmp0; T.us = us; T.ts = ts;
  T.u = u; T.tmp = tmp; T.ub = ub; T.tb = tb; T.kb = 0.0;
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, time_seq());
  BENCH_TIME(&b, t_pri, time_pri());
  BENCH_TIME(&b, t_vjp, time_vjp());
  BENCH_TIME(&b, t_hand, time_hand());
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(u0); free(tmp0); free(us); free(ts); free(u); free(tmp); free(ub); free(tb);
  return b.warnings ? 3 : 0;
}
