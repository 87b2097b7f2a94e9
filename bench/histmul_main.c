// Timing driver for bench/histmul.c. Links four objects:
//   hprod_seq         bench/histmul.c compiled by cc directly (-Dhprod=hprod_seq, no OpenMP)
//   hprod, hprod_vjp, hprod_jvp   adsoac's translation (or a --fake stand-in)
//   hprod_hand        bench/histmul_hand.c
// Usage: histmul_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// h is written (language.md §2.1): hprod_vjp takes the seed in h_bar and leaves the
// adjoint of h's initial contents there; hprod_jvp takes h's initial tangent in h_dot and
// leaves the final one. The timed input has no zeros: K = 1000 bins, bin[i] uniform in
// [0, K) (all in range), x in [0.999, 1.001) (about n/K ~ 10^3 factors per bin at
// n = 10^6, so the products stay within a few percent of 1; also at 10^7), h0 in
// [0.5, 1.5). Every timed call (seq-C included) first restores h = h0 and, for vjp/hand,
// the seed h_bar (2 x K doubles, negligible next to n).
// Small inputs (n = 1, n = 7 over 3 bins with one bin never updated, a zero h0) are
// checked once, every index and bin against finite differences. The hand adjoint divides
// by x[i], so inputs with zero factors (one zero in a bin; two zeros in one bin) check
// hprod_vjp and hprod_jvp against a brute-force product of the other factors instead
// (language.md §7: exact, never NaN).
#include "harness.h"

void hprod_seq(int n, int k, const int *bin, const double *x, double *h);
void hprod(int n, int k, const int *bin, const double *x, double *h);
void hprod_vjp(int n, int k, const int *bin, const double *x, double *x_bar,
               double *h, double *h_bar);
void hprod_jvp(int n, int k, const int *bin, const double *x, const double *x_dot,
               double *h, double *h_dot);
void hprod_hand(int n, int k, const int *bin, const double *x, double *x_bar,
                double *h, double *h_bar);

enum { K = 1000 };  // bins of the timed input

// h = h0, then the sequential original.
static void run_seq(int n, int k, const int *bin, const double *x, const double *h0,
                    double *h) {
  bench_dcopy(h, h0, k);
  hprod_seq(n, k, bin, x, h);
}

// Central difference of bin bb of hprod_seq in a[j] (a is x or h0) against the
// derivative g. h_final[bb] is affine in x[j] and in h0[bb], so the difference is exact
// up to rounding for any step.
static void check_fd_at(Bench *b, const char *label, const char *what, int n, int k,
                        const int *bin, double *x, double *h0, double *a, int j,
                        int bb, double g, double step, double *hp, double *hm) {
  double v = a[j];
  a[j] = v + step; run_seq(n, k, bin, x, h0, hp);
  a[j] = v - step; run_seq(n, k, bin, x, h0, hm);
  a[j] = v;
  bench_check_fd(b, bench_what(label, what), g, hp[bb], hm[bb], step);
}

// All checks on one input (label NULL: the timed input): the h of hprod, hprod_vjp,
// hprod_jvp, hprod_hand against hprod_seq's; hprod_vjp's x_bar and h_bar against the hand
// adjoint's, with non-zero initial x_bar in [0.5, 1) (accumulate, not overwrite; the
// size of the gradient) and seeds h_bar in [0.5, 1.5) (not 1); the hand adjoint against
// finite differences at the indices idx[0..nidx) (x) and the bins bidx[0..nbidx) (h0);
// hprod_jvp's final h_dot, bin by bin, against the hand gradient: with seed 1 in every
// bin, x_bar[i] is d h_final[bin[i]] / d x[i] (each update touches one bin) and h_bar[b]
// is d h_final[b] / d h0[b], so h_dot[b] = h_bar[b] h_dot0[b] + sum_{bin[i] = b}
// x_bar[i] x_dot[i]. No zeros in x here (the hand adjoint divides by x[i]).
static void check_all(Bench *b, const char *label, int n, int k, const int *bin,
                      double *x, double *h0, const int *idx, int nidx,
                      const int *bidx, int nbidx, double step) {
  double *hs = bench_dalloc(k), *hv = bench_dalloc(k), *hh = bench_dalloc(k), *sv = bench_dalloc(k), *sh = bench_dalloc(k);
  double *gh = bench_dalloc(k), *hd = bench_dalloc(k), *hp = bench_dalloc(k), *hm = bench_dalloc(k);
  double *xv = bench_dalloc(n), *xh = bench_dalloc(n), *gx = bench_dalloc(n), *xd = bench_dalloc(n);
  long double *e = calloc((size_t)k, sizeof *e);
  run_seq(n, k, bin, x, h0, hs);
  for (int c = 0; c < k; c++)
    if (h0[c] != 0.0 && !isnormal(hs[c])) {  // overflow or underflow: a meaningless timing
      fprintf(stderr, "warning: %s: %s[%d] %.17g is not a finite normal number\n", b->name,
              bench_what(label, "the final h"), c, hs[c]);
      b->warnings++;
      break;
    }
  bench_dcopy(hv, h0, k);
  hprod(n, k, bin, x, hv);
  bench_check_array(b, bench_what(label, "primal hprod h vs sequential C"), hv, hs, k, BENCH_RTOL);
  // Non-zero initial adjoints (f_vjp must accumulate), seeds not 1.
  bench_fill(xv, n, 82, 0.5, 1.0); bench_dcopy(xh, xv, n);
  bench_fill(sv, k, 83, 0.5, 1.5); bench_dcopy(sh, sv, k);
  bench_dcopy(hv, h0, k);
  bench_dcopy(hh, h0, k);
  hprod_vjp(n, k, bin, x, xv, hv, sv);
  hprod_hand(n, k, bin, x, xh, hh, sh);
  bench_check_array(b, bench_what(label, "hprod_vjp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hand h vs sequential C"), hh, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hprod_vjp x_bar vs hand"), xv, xh, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hprod_vjp h_bar (adjoint of the initial h) vs hand"),
                    sv, sh, k, BENCH_RTOL);
  // Hand gradient: zero initial x_bar, seed 1 in every bin.
  memset(gx, 0, (size_t)n * sizeof *gx);
  for (int c = 0; c < k; c++) gh[c] = 1.0;
  bench_dcopy(hh, h0, k);
  hprod_hand(n, k, bin, x, gx, hh, gh);
  for (int j = 0; j < nidx; j++)
    check_fd_at(b, label, "d h[bin[i]]/d x[i] (finite difference)", n, k, bin, x, h0, x,
                idx[j], bin[idx[j]], gx[idx[j]], step, hp, hm);
  for (int j = 0; j < nbidx; j++)
    check_fd_at(b, label, "d h[b]/d h0[b] (finite difference)", n, k, bin, x, h0, h0,
                bidx[j], bidx[j], gh[bidx[j]], step, hp, hm);
  // f_jvp: tangents x_dot in [0, 1), h_dot0 in [0.5, 1).
  bench_fill(xd, n, 84, 0.0, 1.0);
  bench_fill(hd, k, 85, 0.5, 1.0);
  for (int c = 0; c < k; c++) e[c] = (long double)gh[c] * hd[c];
  for (int i = 0; i < n; i++) e[bin[i]] += (long double)gx[i] * xd[i];
  for (int c = 0; c < k; c++) gh[c] = (double)e[c];
  bench_dcopy(hv, h0, k);
  hprod_jvp(n, k, bin, x, xd, hv, hd);
  bench_check_array(b, bench_what(label, "hprod_jvp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hprod_jvp h_dot vs hand gradient . tangent"),
                    hd, gh, k, BENCH_RTOL);
  free(hs); free(hv); free(hh); free(sv); free(sh); free(gh); free(hd); free(hp); free(hm);
  free(xv); free(xh); free(gx); free(xd); free(e);
}

enum { SMALL = 7 };

// Small data: n = 7 over 3 bins, bin 1 never updated (its seed must pass unchanged);
// factors of both signs, off 1; h0 = 0.25, -0.25, -0.75.
static void small_data(int n, int k, int *bin, double *x, double *h0) {
  static const int bins7[SMALL] = {2, 0, 2, 2, 0, 2, 0};
  for (int i = 0; i < n; i++) {
    bin[i] = k == 1 ? 0 : bins7[i];
    x[i] = (i % 2 ? -1.0 : 1.0) * (0.7 + 0.1 * i);
  }
  for (int c = 0; c < k; c++) h0[c] = 0.25 - 0.5 * c;
}

// Small n without zero factors: every index and every bin against finite differences
// (step 0.5); zh >= 0: h0[zh] = 0 (the hand adjoint does not divide by h0).
static void check_small(Bench *b, const char *label, int n, int k, int zh) {
  int bin[SMALL], idx[SMALL], bidx[SMALL];
  double x[SMALL], h0[SMALL];
  small_data(n, k, bin, x, h0);
  if (zh >= 0) h0[zh] = 0.0;
  for (int i = 0; i < n; i++) idx[i] = i;
  for (int c = 0; c < k; c++) bidx[c] = c;
  check_all(b, label, n, k, bin, x, h0, idx, n, bidx, k, 0.5);
}

// Small n with zero factors x[z1], x[z2] (-1: none): hprod_vjp and hprod_jvp against
// the exact brute-force derivatives (products of the other factors, no division),
// which are themselves checked against finite differences (exact: h is affine in each
// factor).
static void check_zeros(Bench *b, const char *label, int z1, int z2) {
  const int n = SMALL, k = 3;
  int bin[SMALL];
  double x[SMALL], h0[SMALL], hs[SMALL], hv[SMALL], hp[SMALL], hm[SMALL];
  double xv[SMALL], xw[SMALL], sv[SMALL], sw[SMALL], gx[SMALL], gh[SMALL];
  double xd[SMALL], hd[SMALL], hdw[SMALL];
  small_data(n, k, bin, x, h0);
  if (z1 >= 0) x[z1] = 0.0;
  if (z2 >= 0) x[z2] = 0.0;
  // gx[i] = d h_final[bin[i]] / d x[i], gh[c] = d h_final[c] / d h0[c], by brute force.
  for (int c = 0; c < k; c++) {
    gh[c] = 1.0;
    for (int j = 0; j < n; j++)
      if (bin[j] == c) gh[c] *= x[j];
  }
  for (int i = 0; i < n; i++) {
    gx[i] = h0[bin[i]];
    for (int j = 0; j < n; j++)
      if (j != i && bin[j] == bin[i]) gx[i] *= x[j];
  }
  for (int i = 0; i < n; i++)
    check_fd_at(b, label, "brute-force d h[bin[i]]/d x[i] (finite difference)", n, k, bin,
                x, h0, x, i, bin[i], gx[i], 0.5, hp, hm);
  for (int c = 0; c < k; c++)
    check_fd_at(b, label, "brute-force d h[b]/d h0[b] (finite difference)", n, k, bin,
                x, h0, h0, c, c, gh[c], 0.5, hp, hm);
  run_seq(n, k, bin, x, h0, hs);
  bench_dcopy(hv, h0, k);
  hprod(n, k, bin, x, hv);
  bench_check_array(b, bench_what(label, "primal hprod h vs sequential C"), hv, hs, k, BENCH_RTOL);
  for (int i = 0; i < n; i++) xv[i] = xw[i] = 0.125 * (i + 1);
  for (int c = 0; c < k; c++) sv[c] = 1.5 + 0.25 * c;
  for (int i = 0; i < n; i++) xw[i] += sv[bin[i]] * gx[i];
  for (int c = 0; c < k; c++) sw[c] = sv[c] * gh[c];
  bench_dcopy(hv, h0, k);
  hprod_vjp(n, k, bin, x, xv, hv, sv);
  bench_check_array(b, bench_what(label, "hprod_vjp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hprod_vjp x_bar vs brute force"), xv, xw, n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hprod_vjp h_bar vs brute force"), sv, sw, k, BENCH_RTOL);
  for (int i = 0; i < n; i++) xd[i] = 1.0 + 0.5 * i;
  for (int c = 0; c < k; c++) hd[c] = hdw[c] = 0.5 + c;
  for (int c = 0; c < k; c++) hdw[c] *= gh[c];
  for (int i = 0; i < n; i++) hdw[bin[i]] += gx[i] * xd[i];
  bench_dcopy(hv, h0, k);
  hprod_jvp(n, k, bin, x, xd, hv, hd);
  bench_check_array(b, bench_what(label, "hprod_jvp h vs sequential C"), hv, hs, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "hprod_jvp h_dot vs brute force"), hd, hdw, k, BENCH_RTOL);
}

// The timed state: every call restores h (and the seed) first.
static struct {
  int n;
  const int *bin;
  const double *x, *h0, *s0;
  double *h, *hb, *xb;
} T;

static double time_seq(void) { bench_dcopy(T.h, T.h0, K); hprod_seq(T.n, K, T.bin, T.x, T.h); return T.h[0]; }
static double time_pri(void) { bench_dcopy(T.h, T.h0, K); hprod(T.n, K, T.bin, T.x, T.h); return T.h[0]; }
static double time_vjp(void) {
  bench_dcopy(T.h, T.h0, K); bench_dcopy(T.hb, T.s0, K);
  hprod_vjp(T.n, K, T.bin, T.x, T.xb, T.h, T.hb);
  return T.hb[0];
}
static double time_hand(void) {
  bench_dcopy(T.h, T.h0, K); bench_dcopy(T.hb, T.s0, K);
  hprod_hand(T.n, K, T.bin, T.x, T.xb, T.h, T.hb);
  return T.hb[0];
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "histmul", argc, argv);
  int n = b.n;
  double *x = bench_alloc(&b), *xb = bench_alloc(&b);
  int *bin = malloc((size_t)n * sizeof *bin);
  double h0[K], s0[K], h[K], hb[K];
  if (!bin) { fprintf(stderr, "histmul: out of memory\n"); return 2; }
  bench_fill(xb, n, 80, 0.0, (double)K);  // bins uniform in [0, K)
  for (int i = 0; i < n; i++) bin[i] = (int)xb[i] < K ? (int)xb[i] : K - 1;
  bench_fill(x, n, 81, 0.999, 1.001);
  bench_fill(h0, K, 86, 0.5, 1.5);

  // ---- checks (once, before timing) ----
  int idx[3] = {0, n / 2, n - 1};
  int bidx[3] = {bin[0], bin[n / 2] == bin[0] ? (bin[0] + 1) % K : bin[n / 2], K - 1};
  check_all(&b, NULL, n, K, bin, x, h0, idx, 3, bidx, 3, 0.5);
  check_small(&b, "n = 1", 1, 1, -1);
  check_small(&b, "n = 7, 3 bins", 7, 3, -1);
  check_small(&b, "n = 7, 3 bins, h0 = 0 in bin 2", 7, 3, 2);
  check_zeros(&b, "n = 7, one zero in x (bin 2)", 3, -1);
  check_zeros(&b, "n = 7, two zeros in x (bin 0)", 1, 6);

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
