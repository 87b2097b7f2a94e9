// Timing driver for bench/gmm.c. Links four objects:
//   gmm_seq          bench/gmm.c compiled by cc directly (-Dgmm=gmm_seq, no OpenMP)
//   gmm, gmm_vjp, gmm_jvp   adsoac's translation (or a --fake stand-in)
//   gmm_hand         bench/gmm_hand.c
// Usage: gmm_bench [N [REPS]]. Prints one table row (after a '#' line saying what ran);
// warnings go to stderr.
// Problem size: K = 5 components in D = 8 dimensions (fixed), n = N / 100 points (at
// least 1; the row's n column is this n): N = 10^7 (bench/run.sh's default --n) gives
// 10^5 points, x of 6.4 MB, about 2 x 10^7 exp calls per primal evaluation (the main
// term, an exp per (i, k, d), is evaluated twice per point: once for the max, once
// for the sum).
// The timed input: x, means, alphas in [-1, 1), qs in [-0.5, 0.5), gamma = 1.25, m = 2
// (a non-zero m, so both prior terms count). gmm_vjp accumulates into alphas_bar,
// means_bar, qs_bar (x and gamma are inactive: wrt(alphas, means, qs)); the timed calls
// do not reset them. Small inputs (n = 1 with K = D = 1, n = 7 with K = 3, D = 2, and
// the same with component 2 a copy of component 0, so every point's maximum ties) are
// checked once, every parameter against finite differences.
#include "harness.h"

double gmm_seq(int n, int K, int D, const double *alphas, const double *means,
               const double *qs, const double *x, double gamma, int m);
double gmm(int n, int K, int D, const double *alphas, const double *means,
           const double *qs, const double *x, double gamma, int m);
double gmm_vjp(int n, int K, int D, const double *alphas, double *alphas_bar,
               const double *means, double *means_bar, const double *qs, double *qs_bar,
               const double *x, double gamma, int m, double ret_bar);
double gmm_jvp(int n, int K, int D, const double *alphas, const double *alphas_dot,
               const double *means, const double *means_dot, const double *qs,
               const double *qs_dot, const double *x, double gamma, int m, double *ret_dot);
double gmm_hand(int n, int K, int D, const double *alphas, double *alphas_bar,
                const double *means, double *means_bar, const double *qs, double *qs_bar,
                const double *x, double gamma, int m, double ret_bar);

enum { KC = 5, DIM = 8, PER_POINT = 100 };  // components, dimensions, N per point

typedef struct {
  int n, K, D, m;
  double gamma;
  double *alphas, *means, *qs, *x;
} Gmm;

static double seq(const Gmm *g) {
  return gmm_seq(g->n, g->K, g->D, g->alphas, g->means, g->qs, g->x, g->gamma, g->m);
}

// Central difference of gmm_seq in p[j] (p: alphas, means or qs) against the hand
// derivative gd. The objective is smooth, not polynomial: a small step (1e-5;
// truncation ~ h^2 |f'''|, rounding ~ sqrt(n) eps |term| / h, both under 1e-8
// relative here).
static void check_fd_at(Bench *b, const char *label, const char *what, const Gmm *g,
                        double *p, int j, double gd) {
  const double h = 1e-5;
  double v = p[j];
  p[j] = v + h; double fp = seq(g);
  p[j] = v - h; double fm = seq(g);
  p[j] = v;
  char buf[96];
  snprintf(buf, sizeof buf, "%s[%d] (finite difference)", what, j);
  bench_check_fd(b, bench_what(label, buf), gd, fp, fm, h);
}

// All checks on one input (label NULL: the timed input): gmm, gmm_vjp, gmm_jvp,
// gmm_hand against gmm_seq; gmm_vjp against the hand adjoint with non-zero initial
// adjoints and seed 1.5; the hand adjoint against finite differences at the indices
// ai[0..na) of alphas and pi[0..np) of means and qs; gmm_jvp's ret_dot against
// <hand gradient, tangent>.
static void check_all(Bench *b, const char *label, Gmm *g, const int *ai, int na,
                      const int *pi, int np) {
  const double seed = 1.5;  // not 1: a dropped seed must show
  int K = g->K, KD = g->K * g->D;
  double *av = bench_dalloc(K), *ah = bench_dalloc(K), *ad = bench_dalloc(K);
  double *mv = bench_dalloc(KD), *mh = bench_dalloc(KD), *md = bench_dalloc(KD);
  double *qv = bench_dalloc(KD), *qh = bench_dalloc(KD), *qd = bench_dalloc(KD);
  double r_seq = seq(g);
  if (!isfinite(r_seq)) {
    fprintf(stderr, "warning: %s: %s %.17g is not finite\n", b->name,
            bench_what(label, "the result"), r_seq);
    b->warnings++;
  }
  bench_check_scalar(b, bench_what(label, "primal gmm vs sequential C"),
                     gmm(g->n, K, g->D, g->alphas, g->means, g->qs, g->x, g->gamma, g->m),
                     r_seq, BENCH_RTOL);
  // Non-zero initial adjoints: f_vjp must accumulate, not overwrite.
  bench_fill(av, K, 92, -1.0, 1.0); bench_dcopy(ah, av, K);
  bench_fill(mv, KD, 93, -1.0, 1.0); bench_dcopy(mh, mv, KD);
  bench_fill(qv, KD, 94, -1.0, 1.0); bench_dcopy(qh, qv, KD);
  double r_vjp = gmm_vjp(g->n, K, g->D, g->alphas, av, g->means, mv, g->qs, qv, g->x,
                         g->gamma, g->m, seed);
  double r_hand = gmm_hand(g->n, K, g->D, g->alphas, ah, g->means, mh, g->qs, qh, g->x,
                           g->gamma, g->m, seed);
  bench_check_scalar(b, bench_what(label, "gmm_vjp result vs sequential C"), r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "hand result vs sequential C"), r_hand, r_seq, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "gmm_vjp alphas_bar vs hand"), av, ah, K, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "gmm_vjp means_bar vs hand"), mv, mh, KD, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "gmm_vjp qs_bar vs hand"), qv, qh, KD, BENCH_RTOL);
  // Reference sanity: the hand gradient (zero-initialised, seed 1) against finite
  // differences of the sequential original.
  memset(ah, 0, (size_t)K * sizeof *ah);
  memset(mh, 0, (size_t)KD * sizeof *mh);
  memset(qh, 0, (size_t)KD * sizeof *qh);
  gmm_hand(g->n, K, g->D, g->alphas, ah, g->means, mh, g->qs, qh, g->x, g->gamma, g->m, 1.0);
  for (int j = 0; j < na; j++) check_fd_at(b, label, "d/dalphas", g, g->alphas, ai[j], ah[ai[j]]);
  for (int j = 0; j < np; j++) {
    check_fd_at(b, label, "d/dmeans", g, g->means, pi[j], mh[pi[j]]);
    check_fd_at(b, label, "d/dqs", g, g->qs, pi[j], qh[pi[j]]);
  }
  // f_jvp: ret_dot must equal <grad, tangent>.
  bench_fill(ad, K, 95, -1.0, 1.0);
  bench_fill(md, KD, 96, -1.0, 1.0);
  bench_fill(qd, KD, 97, -1.0, 1.0);
  double ret_dot = 0.0;
  double r_jvp = gmm_jvp(g->n, K, g->D, g->alphas, ad, g->means, md, g->qs, qd, g->x,
                         g->gamma, g->m, &ret_dot);
  bench_check_scalar(b, bench_what(label, "gmm_jvp result vs sequential C"), r_jvp, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "gmm_jvp ret_dot vs <hand gradient, tangent>"), ret_dot,
                     bench_inner(ah, ad, NULL, NULL, K) + bench_inner(mh, md, qh, qd, KD),
                     BENCH_RTOL);
  free(av); free(ah); free(ad); free(mv); free(mh); free(md); free(qv); free(qh); free(qd);
}

// Small inputs: every parameter against finite differences. tie: component K-1 is a
// copy of component 0, so at every point the maximum over k is attained twice.
static void check_small(Bench *b, int n, int K, int D, int tie) {
  enum { SN = 7, SK = 3, SD = 2 };
  double alphas[SK], means[SK * SD], qs[SK * SD], x[SN * SD];
  int idx[SK * SD];
  char label[64];
  bench_fill(alphas, K, 90 + tie, -1.0, 1.0);
  bench_fill(means, K * D, 98 + tie, -1.0, 1.0);
  bench_fill(qs, K * D, 100 + tie, -0.5, 0.5);
  bench_fill(x, n * D, 102 + tie, -1.5, 1.5);
  if (tie) {
    alphas[K - 1] = alphas[0];
    for (int d = 0; d < D; d++) {
      means[(K - 1) * D + d] = means[d];
      qs[(K - 1) * D + d] = qs[d];
    }
  }
  for (int j = 0; j < K * D; j++) idx[j] = j;
  Gmm g = {n, K, D, 2, 1.25, alphas, means, qs, x};
  snprintf(label, sizeof label, "n = %d, K = %d, D = %d%s", n, K, D, tie ? ", tied maxima" : "");
  check_all(b, label, &g, idx, K, idx, K * D);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "gmm", argc, argv);
  int n = b.n / PER_POINT < 1 ? 1 : b.n / PER_POINT;  // points
  b.n = n;
  const int K = KC, D = DIM, KD = KC * DIM;
  printf("# gmm: n = %d points, K = %d components, D = %d dimensions (diagonal covariances)\n",
         n, K, D);
  fflush(stdout);
  double alphas[KC], means[KC * DIM], qs[KC * DIM];
  double *x = bench_dalloc(n * D);  // n * D <= 8 * (2^31 - 1) / 100: fits in an int
  bench_fill(alphas, K, 88, -1.0, 1.0);
  bench_fill(means, KD, 89, -1.0, 1.0);
  bench_fill(qs, KD, 91, -0.5, 0.5);
  bench_fill(x, n * D, 87, -1.0, 1.0);
  Gmm g = {n, K, D, 2, 1.25, alphas, means, qs, x};

  // ---- checks (once, before timing) ----
  int ai[2] = {0, K - 1}, pi[3] = {0, KD / 2 + 1, KD - 1};
  check_all(&b, NULL, &g, ai, 2, pi, 3);
  check_small(&b, 1, 1, 1, 0);
  check_small(&b, 7, 3, 2, 0);
  check_small(&b, 7, 3, 2, 1);

  // ---- timing ----
  double ab[KC] = {0}, mb[KC * DIM] = {0}, qb[KC * DIM] = {0};
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(&b, t_seq, gmm_seq(n, K, D, alphas, means, qs, x, g.gamma, g.m));
  BENCH_TIME(&b, t_pri, gmm(n, K, D, alphas, means, qs, x, g.gamma, g.m));
  BENCH_TIME(&b, t_vjp, gmm_vjp(n, K, D, alphas, ab, means, mb, qs, qb, x, g.gamma, g.m, 1.0));
  BENCH_TIME(&b, t_hand, gmm_hand(n, K, D, alphas, ab, means, mb, qs, qb, x, g.gamma, g.m, 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, t_hand);

  free(x);
  return b.warnings ? 3 : 0;
}
