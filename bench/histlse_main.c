// Timing driver for bench/histlse.c. Links four objects:
//   hlse_seq          bench/histlse.c compiled by cc directly (-Dhlse=hlse_seq, no OpenMP)
//   hlse, hlse_vjp, hlse_jvp   adsoac's translation (or a --fake stand-in)
//   hlse_hand         bench/histlse_hand.c
// Usage: histlse_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// h is written (language.md §2.1): hlse_vjp takes the seed in h_bar and leaves the
// adjoint of h's initial contents there; hlse_jvp takes h's initial tangent in h_dot and
// leaves the final one. lse is a declared commutative operator without an inverse, so
// adsoac differentiates the histogram with its sort-based general rule. The timed input:
// K = 1000 bins, bin[i] uniform in [0, K) (all in range), x in [-1, 1), h0 in [-1, 1).
// Every timed call (seq-C included) first restores h = h0 and, for vjp/hand, the seed
// h_bar (2 x K doubles, negligible next to n).
// Small inputs (n = 1; n = 7 over 3 bins with one bin never updated; the same with
// x spread over [-34, 42], derivatives from ~1e-27 to ~1 within a bin; h0 =
// -INFINITY, lse's neutral element, in one updated bin: its adjoint is 0) are checked
// once, every index and bin against finite differences.
#include "harness.h"

void hlse_seq(int n, int k, const int *bin, const double *x, double *h);
void hlse(int n, int k, const int *bin, const double *x, double *h);
void hlse_vjp(int n, int k, const int *bin, const double *x, double *x_bar,
              double *h, double *h_bar);
void hlse_jvp(int n, int k, const int *bin, const double *x, const double *x_dot,
              double *h, double *h_dot);
void hlse_hand(int n, int k, const int *bin, const double *x, double *x_bar,
               double *h, double *h_bar);

enum { K = 1000 };  // bins of the timed input

// h = h0, then the sequential original.
static void run_seq(int n, int k, const int *bin, const double *x, const double *h0,
                    double *h) {
  bench_dcopy(h, h0, k);
  hlse_seq(n, k, bin, x, h);
}

// Central difference of bin bb of hlse_seq in a[j] (a is x or h0) against the hand
// derivative g. The derivatives of the timed input are ~1e-3 (a bin sums ~10^3 terms),
// so the tolerance is relative to max(|g|, |fd|, 1e-3), not to 1 as bench_check_fd's:
// rel. 1e-6 for the timed gradients, absolute 1e-9 for smaller ones. Truncation error
// ~ step^2/6 relative (d^3 lse / dx^3 <= d lse / dx), rounding ~ 1e-14 / step.
static void check_fd_at(Bench *b, const char *label, const char *what, int n, int k,
                        const int *bin, double *x, double *h0, double *a, int j,
                        int bb, double g, double step, double *hp, double *hm) {
  double v = a[j];
  a[j] = v + step; run_seq(n, k, bin, x, h0, hp);
  a[j] = v - step; run_seq(n, k, bin, x, h0, hm);
  a[j] = v;
  double fd = (hp[bb] - hm[bb]) / (2.0 * step);
  double err = fabs(fd - g) / fmax(fmax(fabs(g), fabs(fd)), 1e-3);
  if (!(err <= 1e-6))
    bench_warn(b, "hand-written adjoint %.17g, finite difference %.17g (rel. error %.3g)",
               bench_what(label, what), g, fd, err);
}

// All checks on one input (label NULL: the timed input): the h of hlse, hlse_vjp,
// hlse_jvp, hlse_hand against hlse_seq's; hlse_vjp's x_bar and h_bar against the hand
// adjoint's, with non-zero initial x_bar in [0.5, 1) xb0 (accumulate, not overwrite; xb0
// the size of the gradient, so that rel. 1e-9 of the sum still checks the gradient
// itself to about that) and seeds h_bar in [0.5, 1.5) (not 1); the hand adjoint against
// finite differences (step) at the indices idx[0..nidx) (x) and the bins bidx[0..nbidx)
// (h0); hlse_jvp's final h_dot, bin by bin, against the hand gradient: with seed 1 in
// every bin, x_bar[i] is d h_final[bin[i]] / d x[i] (each update touches one bin) and
// h_bar[b] is d h_final[b] / d h0[b], so h_dot[b] = h_bar[b] h_dot0[b] +
// sum_{bin[i] = b} x_bar[i] x_dot[i].
static void check_all(Bench *b, const char *label, int n, int k, const int *bin,
                      double *x, double *h0, const int *idx, int nidx,
                      const int *bidx, int nbidx, double step, double xb0) {
  double *hs = bench_dalloc(k), *hv = bench_dalloc(k), *hh = bench_dalloc(k), *sv = bench_dalloc(k), *sh = bench_dalloc(k);
  double *gh = bench_dalloc(k), *hd = bench_dalloc(k), *hp = bench_dalloc(k), *hm = bench_dalloc(k);
  double *xv = bench_dalloc(n), *xh = bench_dalloc(n), *gx = bench_dalloc(n), *xd = bench_dalloc(n);
  long double *e = calloc((size_t)k, sizeof *e);
  run_seq(n, k, bin, x, h0, hs);
  for (int c = 0; c < k; c++)
    if (!isfinite(hs[c])) {
      fprintf(stderr, "warning: %s: %s[%d] %.17g is not finite\n", b->name,
              bench_what(label, "the final h"), c, hs[c]);
      b->warnings++;
      break;
    }
  bench_dcopy(hv, h0, k);
  hlse(n, k, bin, x, hv);
  bench_check_array(b, bench_what(label, "primal hlse h vs sequential C"), hv, hs, k, BENCH_RTOL);
  // Non-zero initial adjoints (f_vjp must accumulate), seeds not 1.
  bench_fill(xv, n, 102, 0.5 * xb0, xb0); bench_dcopy(xh, xv, n);
  bench_fill(sv, k, 103, 0.5, 1.5); bench_dcopy(sh, sv, k);
  bench_dcopy(hv, h0, k);
  bench_dcopy(hh, h0, k);
  hlse_vjp(n, k, bin, x, xv, hv, sv);
  hlse_hand(n, k, bin, x, xh, hh, sh);
  bench_check_array(b, bench_what(label, "hlse_vjp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hand h vs sequential C"), hh, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hlse_vjp x_bar vs hand"), xv, xh, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hlse_vjp h_bar (adjoint of the initial h) vs hand"),
                    sv, sh, k, BENCH_RTOL);
  // Hand gradient: zero initial x_bar, seed 1 in every bin.
  memset(gx, 0, (size_t)n * sizeof *gx);
  for (int c = 0; c < k; c++) gh[c] = 1.0;
  bench_dcopy(hh, h0, k);
  hlse_hand(n, k, bin, x, gx, hh, gh);
  for (int j = 0; j < nidx; j++)
    check_fd_at(b, label, "d h[bin[i]]/d x[i] (finite difference)", n, k, bin, x, h0, x,
                idx[j], bin[idx[j]], gx[idx[j]], step, hp, hm);
  for (int j = 0; j < nbidx; j++)
    check_fd_at(b, label, "d h[b]/d h0[b] (finite difference)", n, k, bin, x, h0, h0,
                bidx[j], bidx[j], gh[bidx[j]], step, hp, hm);
  // f_jvp: tangents x_dot in [0, 1), h_dot0 in [0.5, 1).
  bench_fill(xd, n, 104, 0.0, 1.0);
  bench_fill(hd, k, 105, 0.5, 1.0);
  for (int c = 0; c < k; c++) e[c] = (long double)gh[c] * hd[c];
  for (int i = 0; i < n; i++) e[bin[i]] += (long double)gx[i] * xd[i];
  for (int c = 0; c < k; c++) gh[c] = (double)e[c];
  bench_dcopy(hv, h0, k);
  hlse_jvp(n, k, bin, x, xd, hv, hd);
  bench_check_array(b, bench_what(label, "hlse_jvp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hlse_jvp h_dot vs hand gradient . tangent"),
                    hd, gh, k, BENCH_RTOL);
  free(hs); free(hv); free(hh); free(sv); free(sh); free(gh); free(hd); free(hp); free(hm);
  free(xv); free(xh); free(gx); free(xd); free(e);
}

// Small n: every index and every bin with a finite h0 against finite differences
// (step 1e-4). n = 7 spreads over 3 bins and leaves bin 1 without updates (its content
// and seed must pass unchanged); x = s (0.7, -0.8, 0.9, -1.0, 1.1, -1.2, 1.3) + 0.5 i
// with s the spread (1 or 30), h0 = 0.25, -0.25, -0.75; ninf: h0[0] = -INFINITY.
static void check_small(Bench *b, const char *label, int n, int k, double spread, int ninf) {
  enum { SMALL = 7 };
  static const int bins7[SMALL] = {2, 0, 2, 2, 0, 2, 0};
  int bin[SMALL], idx[SMALL], bidx[SMALL], nb = 0;
  double x[SMALL], h0[SMALL];
  for (int i = 0; i < n; i++) {
    bin[i] = k == 1 ? 0 : bins7[i];
    x[i] = spread * (i % 2 ? -1.0 : 1.0) * (0.7 + 0.1 * i) + 0.5 * i;
    idx[i] = i;
  }
  for (int c = 0; c < k; c++) h0[c] = 0.25 - 0.5 * c;
  if (ninf) h0[0] = -INFINITY;
  for (int c = 0; c < k; c++)
    if (isfinite(h0[c])) bidx[nb++] = c;
  check_all(b, label, n, k, bin, x, h0, idx, n, bidx, nb, 1e-4, 1.0);
}

// The timed state: every call restores h (and the seed) first.
static struct {
  int n;
  const int *bin;
  const double *x, *h0, *s0;
  double *h, *hb, *xb;
} T;

static double time_seq(void) { bench_dcopy(T.h, T.h0, K); hlse_seq(T.n, K, T.bin, T.x, T.h); return T.h[0]; }
static double time_pri(void) { bench_dcopy(T.h, T.h0, K); hlse(T.n, K, T.bin, T.x, T.h); return T.h[0]; }
static double time_vjp(void) {
  bench_dcopy(T.h, T.h0, K); bench_dcopy(T.hb, T.s0, K);
  hlse_vjp(T.n, K, T.bin, T.x, T.xb, T.h, T.hb);
  return T.hb[0];
}
static double time_hand(void) {
  bench_dcopy(T.h, T.h0, K); bench_dcopy(T.hb, T.s0, K);
  hlse_hand(T.n, K, T.bin, T.x, T.xb, T.h, T.hb);
  return T.hb[0];
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "histlse", argc, argv);
  int n = b.n;
  double *x = bench_alloc(&b), *xb = bench_alloc(&b);
  int *bin = malloc((size_t)n * sizeof *bin);
  double h0[K], s0[K], h[K], hb[K];
  if (!bin) { fprintf(stderr, "histlse: out of memory\n"); return 2; }
  bench_fill(xb, n, 100, 0.0, (double)K);  // bins uniform in [0, K)
  for (int i = 0; i < n; i++) bin[i] = (int)xb[i] < K ? (int)xb[i] : K - 1;
  bench_fill(x, n, 101, -1.0, 1.0);
  bench_fill(h0, K, 106, -1.0, 1.0);

  // ---- checks (once, before timing) ----
  // Step 5e-4: truncation ~4e-8, rounding of h_final (~7 at n = 10^6) ~1e-14 / 1e-3,
  // both well under rel. 1e-6 of the ~1e-3 derivatives.
  int idx[3] = {0, n / 2, n - 1};
  int bidx[3] = {bin[0], bin[n / 2] == bin[0] ? (bin[0] + 1) % K : bin[n / 2], K - 1};
  check_all(&b, NULL, n, K, bin, x, h0, idx, 3, bidx, 3, 5e-4, 1e-3);
  check_small(&b, "n = 1", 1, 1, 1.0, 0);
  check_small(&b, "n = 7, 3 bins", 7, 3, 1.0, 0);
  check_small(&b, "n = 7, 3 bins, x spread over [-34, 42]", 7, 3, 30.0, 0);
  check_small(&b, "n = 7, 3 bins, h0 = -INFINITY in bin 0", 7, 3, 1.0, 1);

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
