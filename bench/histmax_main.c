// Timing driver for bench/histmax.c. Links four objects:
//   hmax_seq          bench/histmax.c compiled by cc directly (-Dhmax=hmax_seq, no OpenMP)
//   hmax, hmax_vjp, hmax_jvp   adsoac's translation (or a --fake stand-in)
//   hmax_hand         bench/histmax_hand.c
// Usage: histmax_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// h is written (language.md §2.1): hmax_vjp takes the seed in h_bar and leaves the
// adjoint of h's initial contents there; hmax_jvp takes h's initial tangent in h_dot and
// leaves the final one. The timed input: K = 1000 bins, bin[i] uniform in [0, K) (all
// in range), x in [-1, 1), h0 in [-1, 1) (random doubles: no ties in practice; the
// driver checks the winners against the sequential loop's anyway), plus, for the finite
// differences, one clear winner x = 1.5, one clear loser x = -1.5, one bin whose initial
// content 1.5 beats every update and one whose initial -1.5 loses. Every timed call
// (seq-C included) first restores h = h0 and, for vjp/hand, the seed h_bar (2 x K
// doubles, negligible next to n).
// Small inputs (n = 1; n = 7 over 3 bins with one bin never updated; one where the
// initial content wins) are checked against finite differences at every index and bin
// (the gaps exceed the step), and the tie rule of language.md §7 on n = 7 with ties
// (two equal maxima in one bin: the earlier wins; an initial content equal to the
// maximum: it wins) against the sequential loop's winners.
#include "harness.h"

void hmax_seq(int n, int k, const int *bin, const double *x, double *h);
void hmax(int n, int k, const int *bin, const double *x, double *h);
void hmax_vjp(int n, int k, const int *bin, const double *x, double *x_bar,
              double *h, double *h_bar);
void hmax_jvp(int n, int k, const int *bin, const double *x, const double *x_dot,
              double *h, double *h_dot);
void hmax_hand(int n, int k, const int *bin, const double *x, double *x_bar,
               double *h, double *h_bar);

enum { K = 1000 };  // bins of the timed input

// h = h0, then the sequential original.
static void run_seq(int n, int k, const int *bin, const double *x, const double *h0,
                    double *h) {
  bench_dcopy(h, h0, k);
  hmax_seq(n, k, bin, x, h);
}

// Central difference of bin bb of hmax_seq in a[j] (a is x or h0) against the hand
// derivative g. Only where the gap between the winner and the runner-up of the bin
// exceeds the step: h_final[bb] is then exactly a[j] or independent of it.
static void check_fd_at(Bench *b, const char *label, const char *what, int n, int k,
                        const int *bin, double *x, double *h0, double *a, int j,
                        int bb, double g, double step, double *hp, double *hm) {
  double v = a[j];
  a[j] = v + step; run_seq(n, k, bin, x, h0, hp);
  a[j] = v - step; run_seq(n, k, bin, x, h0, hm);
  a[j] = v;
  bench_check_fd(b, bench_what(label, what), g, hp[bb], hm[bb], step);
}

// All checks on one input (label NULL: the timed input): the h of hmax, hmax_vjp,
// hmax_jvp, hmax_hand against hmax_seq's; hmax_vjp's x_bar and h_bar against the hand
// adjoint's, with non-zero initial x_bar in [0.5, 1) (accumulate, not overwrite) and
// seeds h_bar in [0.5, 1.5) (not 1); the hand adjoint against the winners of the
// sequential loop (per bin: the initial content if no update beats it, else the first
// x[i] that beats every earlier one) and against finite differences (step 0.125) at
// the indices idx[0..nidx) (x) and the bins bidx[0..nbidx) (h0); hmax_jvp's final
// h_dot, bin by bin, against the hand gradient: with seed 1 in every bin, x_bar[i] is
// d h_final[bin[i]] / d x[i] (each update touches one bin) and h_bar[b] is
// d h_final[b] / d h0[b], so h_dot[b] = h_bar[b] h_dot0[b] + sum_{bin[i] = b} x_bar[i]
// x_dot[i] (the winner's tangent).
static void check_all(Bench *b, const char *label, int n, int k, const int *bin,
                      double *x, double *h0, const int *idx, int nidx,
                      const int *bidx, int nbidx) {
  const double step = 0.125;
  double *hs = bench_dalloc(k), *hv = bench_dalloc(k), *hh = bench_dalloc(k), *sv = bench_dalloc(k), *sh = bench_dalloc(k);
  double *gh = bench_dalloc(k), *hd = bench_dalloc(k), *hp = bench_dalloc(k), *hm = bench_dalloc(k), *sw = bench_dalloc(k);
  double *xv = bench_dalloc(n), *xh = bench_dalloc(n), *gx = bench_dalloc(n), *xd = bench_dalloc(n), *xw = bench_dalloc(n);
  int *win = malloc((size_t)(k > 0 ? k : 1) * sizeof *win);
  long double *e = calloc((size_t)k, sizeof *e);
  run_seq(n, k, bin, x, h0, hs);
  bench_dcopy(hv, h0, k);
  hmax(n, k, bin, x, hv);
  bench_check_array(b, bench_what(label, "primal hmax h vs sequential C"), hv, hs, k, BENCH_RTOL);
  // Non-zero initial adjoints (f_vjp must accumulate), seeds not 1.
  bench_fill(xv, n, 92, 0.5, 1.0); bench_dcopy(xh, xv, n); bench_dcopy(xw, xv, n);
  bench_fill(sv, k, 93, 0.5, 1.5); bench_dcopy(sh, sv, k); bench_dcopy(sw, sv, k);
  bench_dcopy(hv, h0, k);
  bench_dcopy(hh, h0, k);
  hmax_vjp(n, k, bin, x, xv, hv, sv);
  hmax_hand(n, k, bin, x, xh, hh, sh);
  bench_check_array(b, bench_what(label, "hmax_vjp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hand h vs sequential C"), hh, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hmax_vjp x_bar vs hand"), xv, xh, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hmax_vjp h_bar (adjoint of the initial h) vs hand"),
                    sv, sh, k, BENCH_RTOL);
  // The sequential loop's winners: the whole seed of a bin goes to its winner.
  bench_dcopy(hp, h0, k);
  for (int c = 0; c < k; c++) win[c] = -1;
  for (int i = 0; i < n; i++)
    if (x[i] > hp[bin[i]]) {
      hp[bin[i]] = x[i];
      win[bin[i]] = i;
    }
  for (int c = 0; c < k; c++)
    if (win[c] >= 0) {
      xw[win[c]] += sw[c];
      sw[c] = 0.0;
    }
  bench_check_array(b, bench_what(label, "hand x_bar vs sequential winners"), xh, xw, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hand h_bar vs sequential winners"), sh, sw, k, BENCH_RTOL);
  // Hand gradient: zero initial x_bar, seed 1 in every bin.
  memset(gx, 0, (size_t)n * sizeof *gx);
  for (int c = 0; c < k; c++) gh[c] = 1.0;
  bench_dcopy(hh, h0, k);
  hmax_hand(n, k, bin, x, gx, hh, gh);
  for (int j = 0; j < nidx; j++)
    check_fd_at(b, label, "d h[bin[i]]/d x[i] (finite difference)", n, k, bin, x, h0, x,
                idx[j], bin[idx[j]], gx[idx[j]], step, hp, hm);
  for (int j = 0; j < nbidx; j++)
    check_fd_at(b, label, "d h[b]/d h0[b] (finite difference)", n, k, bin, x, h0, h0,
                bidx[j], bidx[j], gh[bidx[j]], step, hp, hm);
  // f_jvp: tangents x_dot in [0, 1), h_dot0 in [0.5, 1).
  bench_fill(xd, n, 94, 0.0, 1.0);
  bench_fill(hd, k, 95, 0.5, 1.0);
  for (int c = 0; c < k; c++) e[c] = (long double)gh[c] * hd[c];
  for (int i = 0; i < n; i++) e[bin[i]] += (long double)gx[i] * xd[i];
  for (int c = 0; c < k; c++) gh[c] = (double)e[c];
  bench_dcopy(hv, h0, k);
  hmax_jvp(n, k, bin, x, xd, hv, hd);
  bench_check_array(b, bench_what(label, "hmax_jvp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hmax_jvp h_dot vs the winners' tangents"),
                    hd, gh, k, BENCH_RTOL);
  free(hs); free(hv); free(hh); free(sv); free(sh); free(gh); free(hd); free(hp); free(hm);
  free(sw); free(xv); free(xh); free(gx); free(xd); free(xw); free(win); free(e);
}

enum { SMALL = 7 };

// Small n: n = 7 over 3 bins, bin 1 never updated (its seed must pass unchanged),
// x = 0.7, -0.8, 0.9, -1.0, 1.1, -1.2, 1.3 (bin 2 gets 0.7, 0.9, -1.0, -1.2 and is won by
// x[2]; bin 0 gets -0.8, 1.1, 1.3 and is won by x[6]), h0 = 0.25, -0.25, -0.75; the
// gaps are >= 0.2. tie: x[4] = x[6] = 1.3 (bin 0: x[4] wins), h0[2] = 0.9 = x[2] (the
// initial content wins); no finite differences there. h0win: h0[0] = 2 beats bin 0.
static void check_small(Bench *b, const char *label, int n, int k, int tie, int h0win) {
  static const int bins7[SMALL] = {2, 0, 2, 2, 0, 2, 0};
  int bin[SMALL], idx[SMALL], bidx[SMALL];
  double x[SMALL], h0[SMALL];
  for (int i = 0; i < n; i++) {
    bin[i] = k == 1 ? 0 : bins7[i];
    x[i] = (i % 2 ? -1.0 : 1.0) * (0.7 + 0.1 * i);
    idx[i] = i;
  }
  for (int c = 0; c < k; c++) {
    h0[c] = 0.25 - 0.5 * c;
    bidx[c] = c;
  }
  if (tie) {
    x[4] = x[6] = 1.3;
    h0[2] = x[2];
  }
  if (h0win) h0[0] = 2.0;
  check_all(b, label, n, k, bin, x, h0, idx, tie ? 0 : n, bidx, tie ? 0 : k);
}

// The timed state: every call restores h (and the seed) first.
static struct {
  int n;
  const int *bin;
  const double *x, *h0, *s0;
  double *h, *hb, *xb;
} T;

static double time_seq(void) { bench_dcopy(T.h, T.h0, K); hmax_seq(T.n, K, T.bin, T.x, T.h); return T.h[0]; }
static double time_pri(void) { bench_dcopy(T.h, T.h0, K); hmax(T.n, K, T.bin, T.x, T.h); return T.h[0]; }
static double time_vjp(void) {
  bench_dcopy(T.h, T.h0, K); bench_dcopy(T.hb, T.s0, K);
  hmax_vjp(T.n, K, T.bin, T.x, T.xb, T.h, T.hb);
  return T.hb[0];
}
static double time_hand(void) {
  bench_dcopy(T.h, T.h0, K); bench_dcopy(T.hb, T.s0, K);
  hmax_hand(T.n, K, T.bin, T.x, T.xb, T.h, T.hb);
  return T.hb[0];
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "histmax", argc, argv);
  int n = b.n;
  double *x = bench_alloc(&b), *xb = bench_alloc(&b);
  int *bin = malloc((size_t)n * sizeof *bin);
  double h0[K], s0[K], h[K], hb[K];
  if (!bin) { fprintf(stderr, "histmax: out of memory\n"); return 2; }
  bench_fill(xb, n, 90, 0.0, (double)K);  // bins uniform in [0, K)
  for (int i = 0; i < n; i++) bin[i] = (int)xb[i] < K ? (int)xb[i] : K - 1;
  bench_fill(x, n, 91, -1.0, 1.0);
  bench_fill(h0, K, 96, -1.0, 1.0);
  // Clear cases for the finite differences (gaps >= 0.5 > step 0.125): x[j1] = 1.5
  // wins its bin, x[j2] = -1.5 loses its bin (every other content >= -1); bin b1's
  // initial 1.5 beats its updates, bin b2's initial -1.5 loses to them (or, if b2 gets
  // no update, stays alone); b1, b2 differ from bin[j1], bin[j2].
  int j1 = n / 3, j2 = n / 2;
  x[j2] = -1.5;
  x[j1] = 1.5;  // at n = 1, j1 = j2: the winner
  int b1 = 0;
  while (b1 == bin[j1] || b1 == bin[j2]) b1++;
  int b2 = b1 + 1;
  while (b2 == bin[j1] || b2 == bin[j2]) b2++;
  h0[b1] = 1.5;
  h0[b2] = -1.5;

  // ---- checks (once, before timing) ----
  int idx[2] = {j1, j2};
  int bidx[3] = {b1, b2, bin[j1]};
  check_all(&b, NULL, n, K, bin, x, h0, idx, 2, bidx, 3);
  check_small(&b, "n = 1", 1, 1, 0, 0);
  check_small(&b, "n = 7, 3 bins", 7, 3, 0, 0);
  check_small(&b, "n = 7, 3 bins, h0 wins bin 0", 7, 3, 0, 1);
  check_small(&b, "n = 7, 3 bins, ties", 7, 3, 1, 0);

  // ---- timing ----
  for (int c = 0; c < K; c++) s0[c] = 1.0;
  memset(xb, 0, (size_t)n * sizeof *xb);
  T.n = n; T.bin = bin; T.x = x; T.h0 = h0; T.s0 = s0; T.h = h; T.hb = hb; T.xb = xb;
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, time_seq());
  BENCH_TIME(&b, t_pri, time_pri());
  BENCH_TIME(&b, t_vjp, time_vjp());
  BENCH_TIME(&b, t_hand, time_hand());
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(x); free(xb); free(bin);
  return b.warnings ? 3 : 0;
}
