// Timing driver for the legacy_gmm benchmark: examples/legacy/gmm/gmm.c as it is, ADBench's
// GMM objective with full covariances in Tapenade's C (run.sh takes the annotated file from
// there). Links three objects:
//   gmm_objective_seq     gmm.c compiled by cc directly (-Dgmm_objective=gmm_objective_seq,
//                         no OpenMP; its helpers made local)
//   gmm_objective, gmm_objective_vjp, gmm_objective_jvp   adsoac's translation
// No hand-written adjoint: the hand columns show "-", and f_vjp is checked against finite
// differences of gmm_objective_seq instead (bench/README.md).
// Usage: legacy_gmm_bench [N [REPS]]. Prints one table row (after a '#' line saying what
// ran); warnings go to stderr.
// Problem size: k = 5 components in d = 10 dimensions, n = N / 1000 points (the row's n
// column; 10^4 at the default: ADBench's gmm_d10_K5 with its 10k points), x, means, alphas
// in [-1, 1), icf in [-0.5, 0.5), Wishart gamma = 1.25, m = 2. Every floating-point input
// is active (x and gamma too, unlike bench/gmm's wrt(alphas, means, qs)). Timed: *err_bar = 1
// restored before each vjp call (the call leaves 0: err is assigned before it is read); the
// other adjoints accumulate.
#include "harness.h"

typedef struct {
  double gamma;
  int m;
} Wishart;

void gmm_objective_seq(int d, int k, int n, const double *alphas, const double *means,
                       const double *icf, const double *x, Wishart wishart, double *err);
void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err);
void gmm_objective_vjp(int d, int k, int n, const double *alphas, double *alphas_bar,
                       const double *means, double *means_bar, const double *icf,
                       double *icf_bar, const double *x, double *x_bar, Wishart wishart,
                       Wishart *wishart_bar, double *err, double *err_bar);
void gmm_objective_jvp(int d, int k, int n, const double *alphas, const double *alphas_dot,
                       const double *means, const double *means_dot, const double *icf,
                       const double *icf_dot, const double *x, const double *x_dot,
                       Wishart wishart, Wishart wishart_dot, double *err, double *err_dot);

enum { KC = 5, DIM = 10, PER_POINT = 1000 };

typedef struct {
  int d, k, n;
  Wishart w;
  double *alphas, *means, *icf, *x;
} Gmm;

// the parameters as one array of adjoints or tangents: alphas, means, icf, x, then gamma
typedef struct {
  double *a, *m, *q, *x;
  Wishart w;
} Vec;

static int nicf(const Gmm *g) { return g->k * g->d * (g->d + 1) / 2; }

static void vec_alloc(Vec *v, const Gmm *g) {
  v->a = bench_dalloc(g->k);
  v->m = bench_dalloc(g->k * g->d);
  v->q = bench_dalloc(nicf(g));
  v->x = bench_dalloc(g->n * g->d);
  v->w.gamma = 0.0;
  v->w.m = 0;
}

static void vec_fill(Vec *v, const Gmm *g, unsigned seed) {
  bench_fill(v->a, g->k, seed, -1.0, 1.0);
  bench_fill(v->m, g->k * g->d, seed + 1, -1.0, 1.0);
  bench_fill(v->q, nicf(g), seed + 2, -1.0, 1.0);
  bench_fill(v->x, g->n * g->d, seed + 3, -1.0, 1.0);
  v->w.gamma = 0.375;
}

static void vec_zero(Vec *v, const Gmm *g) {
  memset(v->a, 0, (size_t)g->k * sizeof(double));
  memset(v->m, 0, (size_t)g->k * g->d * sizeof(double));
  memset(v->q, 0, (size_t)nicf(g) * sizeof(double));
  memset(v->x, 0, (size_t)g->n * g->d * sizeof(double));
  v->w.gamma = 0.0;
}

static void vec_free(Vec *v) { free(v->a); free(v->m); free(v->q); free(v->x); }

static double vec_inner(const Vec *u, const Vec *v, const Gmm *g) {
  return bench_inner(u->a, v->a, NULL, NULL, g->k) +
         bench_inner(u->m, v->m, NULL, NULL, g->k * g->d) +
         bench_inner(u->q, v->q, NULL, NULL, nicf(g)) +
         bench_inner(u->x, v->x, NULL, NULL, g->n * g->d) + u->w.gamma * v->w.gamma;
}

static void gmm_make(Gmm *g, int d, int k, int n, unsigned seed) {
  g->d = d;
  g->k = k;
  g->n = n;
  g->w.gamma = 1.25;
  g->w.m = 2;
  g->alphas = bench_dalloc(k);
  g->means = bench_dalloc(k * d);
  g->icf = bench_dalloc(nicf(g));
  g->x = bench_dalloc(n * d);
  bench_fill(g->alphas, k, seed, -1.0, 1.0);
  bench_fill(g->means, k * d, seed + 1, -1.0, 1.0);
  bench_fill(g->icf, nicf(g), seed + 2, -0.5, 0.5);
  bench_fill(g->x, n * d, seed + 3, -1.0, 1.0);
}

static void gmm_free(Gmm *g) { free(g->alphas); free(g->means); free(g->icf); free(g->x); }

static double seq(const Gmm *g) {
  double err;
  gmm_objective_seq(g->d, g->k, g->n, g->alphas, g->means, g->icf, g->x, g->w, &err);
  return err;
}

// Central difference of the sequential objective in *p against f_vjp's derivative gd (step
// 1e-5: the objective is smooth, not polynomial).
static void check_fd_at(Bench *b, const char *label, const char *what, int j, Gmm *g,
                        double *p, double gd) {
  const double h = 1e-5;
  double v = *p;
  *p = v + h; double fp = seq(g);
  *p = v - h; double fm = seq(g);
  *p = v;
  char buf[96];
  snprintf(buf, sizeof buf, "%s[%d] (finite difference)", what, j);
  bench_check_vjp_fd(b, bench_what(label, buf), gd, fp, fm, h);
}

static void check_fd(Bench *b, const char *label, const char *what, Gmm *g, double *p,
                     const double *gd, int len, int nf) {
  int cnt = nf < 0 || nf > len ? len : nf;
  for (int k = 0; k < cnt; k++) {
    int j = nf < 0 ? k : (int)((long)k * (len - 1) / (cnt > 1 ? cnt - 1 : 1));
    check_fd_at(b, label, what, j, g, &p[j], gd[j]);
  }
}

// All checks on one input (label NULL: the timed input): the objective of every variant
// against the sequential C; f_vjp with seed 1.5 accumulates (non-zero initial adjoints give
// the initial values plus the gradient from zero) and leaves *err_bar = 0; the gradient
// against finite differences at nf entries of each parameter array (all if nf < 0; x only
// if fdx: at the timed input x's derivatives are too small for the rounding of the sum over
// all points) and at gamma; f_jvp's err_dot against <gradient, tangent>.
static void check_all(Bench *b, const char *label, Gmm *g, int nf, int fdx) {
  const double seed = 1.5; // not 1: a dropped seed must show
  int d = g->d, k = g->k, n = g->n;
  Vec v0, vb, vz, vd;
  vec_alloc(&v0, g); vec_alloc(&vb, g); vec_alloc(&vz, g); vec_alloc(&vd, g);
  double r_seq = seq(g), r = 0.0, eb = seed;
  if (!isfinite(r_seq)) {
    fprintf(stderr, "warning: %s: %s %.17g is not finite\n", b->name,
            bench_what(label, "the objective"), r_seq);
    b->warnings++;
  }
  gmm_objective(d, k, n, g->alphas, g->means, g->icf, g->x, g->w, &r);
  bench_check_scalar(b, bench_what(label, "primal gmm_objective vs sequential C"), r, r_seq, BENCH_RTOL);
  vec_fill(&v0, g, 20);
  vec_fill(&vb, g, 20);
  gmm_objective_vjp(d, k, n, g->alphas, vb.a, g->means, vb.m, g->icf, vb.q, g->x, vb.x, g->w,
                    &vb.w, &r, &eb);
  bench_check_scalar(b, bench_what(label, "gmm_objective_vjp result vs sequential C"), r, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "gmm_objective_vjp err_bar on exit (0)"), eb, 0.0, BENCH_RTOL);
  vec_zero(&vz, g);
  eb = seed;
  gmm_objective_vjp(d, k, n, g->alphas, vz.a, g->means, vz.m, g->icf, vz.q, g->x, vz.x, g->w,
                    &vz.w, &r, &eb);
  for (int i = 0; i < k; i++) v0.a[i] += vz.a[i];
  for (int i = 0; i < k * d; i++) v0.m[i] += vz.m[i];
  for (int i = 0; i < nicf(g); i++) v0.q[i] += vz.q[i];
  for (int i = 0; i < n * d; i++) v0.x[i] += vz.x[i];
  v0.w.gamma += vz.w.gamma;
  bench_check_array(b, bench_what(label, "gmm_objective_vjp alphas_bar accumulates"), vb.a, v0.a, k, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "gmm_objective_vjp means_bar accumulates"), vb.m, v0.m, k * d, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "gmm_objective_vjp icf_bar accumulates"), vb.q, v0.q, nicf(g), BENCH_RTOL);
  bench_check_array(b, bench_what(label, "gmm_objective_vjp x_bar accumulates"), vb.x, v0.x, n * d, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "gmm_objective_vjp wishart_bar.gamma accumulates"), vb.w.gamma, v0.w.gamma, BENCH_RTOL);
  // the gradient of seed * err (from zero) against finite differences of seed * err
  for (int i = 0; i < k; i++) vz.a[i] /= seed;
  for (int i = 0; i < k * d; i++) vz.m[i] /= seed;
  for (int i = 0; i < nicf(g); i++) vz.q[i] /= seed;
  for (int i = 0; i < n * d; i++) vz.x[i] /= seed;
  vz.w.gamma /= seed;
  check_fd(b, label, "d/dalphas", g, g->alphas, vz.a, k, nf);
  check_fd(b, label, "d/dmeans", g, g->means, vz.m, k * d, nf);
  check_fd(b, label, "d/dicf", g, g->icf, vz.q, nicf(g), nf);
  if (fdx) check_fd(b, label, "d/dx", g, g->x, vz.x, n * d, nf);
  check_fd_at(b, label, "d/dgamma", 0, g, &g->w.gamma, vz.w.gamma);
  // f_jvp
  vec_fill(&vd, g, 30);
  double e_dot = 0.0;
  gmm_objective_jvp(d, k, n, g->alphas, vd.a, g->means, vd.m, g->icf, vd.q, g->x, vd.x, g->w,
                    vd.w, &r, &e_dot);
  bench_check_scalar(b, bench_what(label, "gmm_objective_jvp result vs sequential C"), r, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "gmm_objective_jvp err_dot vs <vjp gradient, tangent>"),
                     e_dot, vec_inner(&vz, &vd, g), BENCH_RTOL);
  vec_free(&v0); vec_free(&vb); vec_free(&vz); vec_free(&vd);
}

static void check_small(Bench *b, int d, int k, int n, unsigned seed) {
  Gmm g;
  char label[64];
  gmm_make(&g, d, k, n, seed);
  snprintf(label, sizeof label, "d = %d, k = %d, n = %d", d, k, n);
  check_all(b, label, &g, -1, 1);
  gmm_free(&g);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "legacy_gmm", argc, argv);
  int n = b.n / PER_POINT < 1 ? 1 : b.n / PER_POINT;
  b.n = n;
  Gmm g;
  gmm_make(&g, DIM, KC, n, 10);
  printf("# legacy_gmm: n = %d points, k = %d components, d = %d dimensions, full "
         "covariances (examples/legacy/gmm/gmm.c)\n", n, KC, DIM);
  fflush(stdout);

  // ---- checks (once, before timing) ----
  check_all(&b, NULL, &g, 3, 0);
  check_small(&b, 2, 1, 1, 11);
  check_small(&b, 2, 3, 7, 12);
  check_small(&b, 4, 2, 5, 13);

  // ---- timing ----
  Vec vb;
  vec_alloc(&vb, &g);
  vec_zero(&vb, &g);
  double err, eb, t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, (gmm_objective_seq(DIM, KC, n, g.alphas, g.means, g.icf, g.x, g.w, &err), err));
  BENCH_TIME(&b, t_pri, (gmm_objective(DIM, KC, n, g.alphas, g.means, g.icf, g.x, g.w, &err), err));
  BENCH_TIME(&b, t_vjp, (eb = 1.0, gmm_objective_vjp(DIM, KC, n, g.alphas, vb.a, g.means, vb.m, g.icf, vb.q, g.x, vb.x, g.w, &vb.w, &err, &eb), err));
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);

  vec_free(&vb);
  gmm_free(&g);
  return b.warnings ? 3 : 0;
}
