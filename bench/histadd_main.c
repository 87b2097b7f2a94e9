// Timing driver for bench/histadd.c. Links four objects:
//   hsum_seq          bench/histadd.c compiled by cc directly (-Dhsum=hsum_seq, no OpenMP)
//   hsum, hsum_vjp, hsum_jvp   adsoac's translation (or a --fake stand-in)
//   hsum_hand         bench/histadd_hand.c
// Usage: histadd_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// h is written (language.md §2.1): hsum_vjp takes the seed in h_bar and leaves the
// adjoint of h's initial contents there; hsum_jvp takes h's initial tangent in h_dot and
// leaves the final one. The timed input: K = 1000 bins, bin[i] uniform in [0, K) (all
// in range), w in [0.5, 1.5), h0 in [0.5, 1.5). Every timed call (seq-C included) first
// restores h = h0 and, for vjp/hand, the seed h_bar (2 x K doubles, negligible next to n).
// Small inputs (n = 1, n = 7 over 3 bins with one bin never updated) are checked once,
// every index and bin against finite differences.
#include "harness.h"

void hsum_seq(int n, int k, const int *bin, const double *w, double *h);
void hsum(int n, int k, const int *bin, const double *w, double *h);
void hsum_vjp(int n, int k, const int *bin, const double *w, double *w_bar,
              double *h, double *h_bar);
void hsum_jvp(int n, int k, const int *bin, const double *w, const double *w_dot,
              double *h, double *h_dot);
void hsum_hand(int n, int k, const int *bin, const double *w, double *w_bar,
               double *h, double *h_bar);

enum { K = 1000 };  // bins of the timed input

// h = h0, then the sequential original.
static void run_seq(int n, int k, const int *bin, const double *w, const double *h0,
                    double *h) {
  bench_dcopy(h, h0, k);
  hsum_seq(n, k, bin, w, h);
}

// Central difference of bin bb of hsum_seq in a[j] (a is w or h0) against the hand
// derivative g. h_final[bb] is quadratic in w[j] and affine in h0[bb], so the difference
// is exact up to rounding for any step.
static void check_fd_at(Bench *b, const char *label, const char *what, int n, int k,
                        const int *bin, double *w, double *h0, double *a, int j,
                        int bb, double g, double step, double *hp, double *hm) {
  double v = a[j];
  a[j] = v + step; run_seq(n, k, bin, w, h0, hp);
  a[j] = v - step; run_seq(n, k, bin, w, h0, hm);
  a[j] = v;
  bench_check_fd(b, bench_what(label, what), g, hp[bb], hm[bb], step);
}

// All checks on one input (label NULL: the timed input): the h of hsum, hsum_vjp,
// hsum_jvp, hsum_hand against hsum_seq's; hsum_vjp's w_bar and h_bar against the hand
// adjoint's, with non-zero initial w_bar in [0.5, 1) (accumulate, not overwrite; the
// size of the gradient 2 w h_bar) and seeds h_bar in [0.5, 1.5) (not 1); the hand
// adjoint against finite differences at the indices idx[0..nidx) (w) and the bins
// bidx[0..nbidx) (h0); hsum_jvp's final h_dot, bin by bin, against the hand gradient:
// with seed 1 in every bin, w_bar[i] is d h_final[bin[i]] / d w[i] (each update
// touches one bin) and h_bar[b] is d h_final[b] / d h0[b], so
// h_dot[b] = h_bar[b] h_dot0[b] + sum_{bin[i] = b} w_bar[i] w_dot[i].
static void check_all(Bench *b, const char *label, int n, int k, const int *bin,
                      double *w, double *h0, const int *idx, int nidx,
                      const int *bidx, int nbidx, double step) {
  double *hs = bench_dalloc(k), *hv = bench_dalloc(k), *hh = bench_dalloc(k), *sv = bench_dalloc(k), *sh = bench_dalloc(k);
  double *gh = bench_dalloc(k), *hd = bench_dalloc(k), *hp = bench_dalloc(k), *hm = bench_dalloc(k);
  double *xv = bench_dalloc(n), *xh = bench_dalloc(n), *gx = bench_dalloc(n), *xd = bench_dalloc(n);
  long double *e = calloc((size_t)k, sizeof *e);
  run_seq(n, k, bin, w, h0, hs);
  bench_dcopy(hv, h0, k);
  hsum(n, k, bin, w, hv);
  bench_check_array(b, bench_what(label, "primal hsum h vs sequential C"), hv, hs, k, BENCH_RTOL);
  // Non-zero initial adjoints (f_vjp must accumulate), seeds not 1.
  bench_fill(xv, n, 72, 0.5, 1.0); bench_dcopy(xh, xv, n);
  bench_fill(sv, k, 73, 0.5, 1.5); bench_dcopy(sh, sv, k);
  bench_dcopy(hv, h0, k);
  bench_dcopy(hh, h0, k);
  hsum_vjp(n, k, bin, w, xv, hv, sv);
  hsum_hand(n, k, bin, w, xh, hh, sh);
  bench_check_array(b, bench_what(label, "hsum_vjp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hand h vs sequential C"), hh, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hsum_vjp w_bar vs hand"), xv, xh, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hsum_vjp h_bar (adjoint of the initial h) vs hand"),
                    sv, sh, k, BENCH_RTOL);
  // Hand gradient: zero initial w_bar, seed 1 in every bin.
  memset(gx, 0, (size_t)n * sizeof *gx);
  for (int c = 0; c < k; c++) gh[c] = 1.0;
  bench_dcopy(hh, h0, k);
  hsum_hand(n, k, bin, w, gx, hh, gh);
  for (int j = 0; j < nidx; j++)
    check_fd_at(b, label, "d h[bin[i]]/d w[i] (finite difference)", n, k, bin, w, h0, w,
                idx[j], bin[idx[j]], gx[idx[j]], step, hp, hm);
  for (int j = 0; j < nbidx; j++)
    check_fd_at(b, label, "d h[b]/d h0[b] (finite difference)", n, k, bin, w, h0, h0,
                bidx[j], bidx[j], gh[bidx[j]], step, hp, hm);
  // f_jvp: tangents w_dot in [0, 1), h_dot0 in [0.5, 1).
  bench_fill(xd, n, 74, 0.0, 1.0);
  bench_fill(hd, k, 75, 0.5, 1.0);
  for (int c = 0; c < k; c++) e[c] = (long double)gh[c] * hd[c];
  for (int i = 0; i < n; i++) e[bin[i]] += (long double)gx[i] * xd[i];
  for (int c = 0; c < k; c++) gh[c] = (double)e[c];
  bench_dcopy(hv, h0, k);
  hsum_jvp(n, k, bin, w, xd, hv, hd);
  bench_check_array(b, bench_what(label, "hsum_jvp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hsum_jvp h_dot vs hand gradient . tangent"),
                    hd, gh, k, BENCH_RTOL);
  free(hs); free(hv); free(hh); free(sv); free(sh); free(gh); free(hd); free(hp); free(hm);
  free(xv); free(xh); free(gx); free(xd); free(e);
}

// Small n: every index and every bin against finite differences (step 0.5); n = 7
// spreads over 3 bins and leaves bin 1 without updates (its seed must pass unchanged).
static void check_small(Bench *b, const char *label, int n, int k) {
  enum { SMALL = 7 };
  static const int bins7[SMALL] = {2, 0, 2, 2, 0, 2, 0};
  int bin[SMALL], idx[SMALL], bidx[SMALL];
  double w[SMALL], h0[SMALL];
  for (int i = 0; i < n; i++) {
    bin[i] = k == 1 ? 0 : bins7[i];
    w[i] = (i % 2 ? -1.0 : 1.0) * (0.7 + 0.1 * i);
    idx[i] = i;
  }
  for (int c = 0; c < k; c++) {
    h0[c] = 0.25 - 0.5 * c;
    bidx[c] = c;
  }
  check_all(b, label, n, k, bin, w, h0, idx, n, bidx, k, 0.5);
}

// The timed state: every call restores h (and the seed) first.
static struct {
  int n;
  const int *bin;
  const double *w, *h0, *s0;
  double *h, *hb, *wb;
} T;

static double time_seq(void) { bench_dcopy(T.h, T.h0, K); hsum_seq(T.n, K, T.bin, T.w, T.h); return T.h[0]; }
static double time_pri(void) { bench_dcopy(T.h, T.h0, K); hsum(T.n, K, T.bin, T.w, T.h); return T.h[0]; }
static double time_vjp(void) {
  bench_dcopy(T.h, T.h0, K); bench_dcopy(T.hb, T.s0, K);
  hsum_vjp(T.n, K, T.bin, T.w, T.wb, T.h, T.hb);
  return T.hb[0];
}
static double time_hand(void) {
  bench_dcopy(T.h, T.h0, K); bench_dcopy(T.hb, T.s0, K);
  hsum_hand(T.n, K, T.bin, T.w, T.wb, T.h, T.hb);
  return T.hb[0];
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "histadd", argc, argv);
  int n = b.n;
  double *w = bench_alloc(&b), *wb = bench_alloc(&b);
  int *bin = malloc((size_t)n * sizeof *bin);
  double h0[K], s0[K], h[K], hb[K];
  if (!bin) { fprintf(stderr, "histadd: out of memory\n"); return 2; }
  bench_fill(wb, n, 70, 0.0, (double)K);  // bins uniform in [0, K)
  for (int i = 0; i < n; i++) bin[i] = (int)wb[i] < K ? (int)wb[i] : K - 1;
  bench_fill(w, n, 71, 0.5, 1.5);
  bench_fill(h0, K, 76, 0.5, 1.5);

  // ---- checks (once, before timing) ----
  int idx[3] = {0, n / 2, n - 1};
  int bidx[3] = {bin[0], bin[n / 2] == bin[0] ? (bin[0] + 1) % K : bin[n / 2], K - 1};
  check_all(&b, NULL, n, K, bin, w, h0, idx, 3, bidx, 3, 0.5);
  check_small(&b, "n = 1", 1, 1);
  check_small(&b, "n = 7, 3 bins", 7, 3);

  // ---- timing ----
  for (int c = 0; c < K; c++) s0[c] = 1.0;
  memset(wb, 0, (size_t)n * sizeof *wb);
  T.n = n; T.bin = bin; T.w = w; T.h0 = h0; T.s0 = s0; T.h = h; T.hb = hb; T.wb = wb;
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, time_seq());
  BENCH_TIME(&b, t_pri, time_pri());
  BENCH_TIME(&b, t_vjp, time_vjp());
  BENCH_TIME(&b, t_hand, time_hand());
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(w); free(wb); free(bin);
  return b.warnings ? 3 : 0;
}
