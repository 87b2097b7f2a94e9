// Timing driver for the legacy_ba benchmark: examples/legacy/ba/ba.c as it is, ADBench's
// bundle-adjustment residuals in Tapenade's C (run.sh takes the annotated file from there).
// Links three objects:
//   ba_objective_seq     ba.c compiled by cc directly (-Dba_objective=ba_objective_seq, no
//                        OpenMP; its helpers made local)
//   ba_objective, ba_objective_vjp, ba_objective_jvp   adsoac's translation
// No hand-written adjoint: the hand columns show "-", and f_vjp is checked against finite
// differences of ba_objective_seq instead (bench/README.md).
// Usage: legacy_ba_bench [N [REPS]]. Prints one table row (after a '#' line saying what ran);
// warnings go to stderr.
// Problem size: n = 49 cameras (as ADBench's smallest problem), p = N / 100 observations (the
// row's n column; 10^5 at the default), m = p / 4 points; cameras with small rotations
// (camera 0 none) about 5 units from the points, every camera and point observed, the
// others' pairs pseudo-random. Timed: the seeds reproj_err_bar = 1, w_err_bar = 1 restored
// before each vjp call (3p doubles: the call leaves them 0, since the residuals are written
// before they are read); cams_bar, X_bar, w_bar, feats_bar accumulate.
#include "harness.h"

void ba_objective_seq(int n, int m, int p, const double *cams, const double *X,
                      const double *w, const int *obs, const double *feats, double *reproj_err,
                      double *w_err);
void ba_objective(int n, int m, int p, const double *cams, const double *X, const double *w,
                  const int *obs, const double *feats, double *reproj_err, double *w_err);
void ba_objective_vjp(int n, int m, int p, const double *cams, double *cams_bar,
                      const double *X, double *X_bar, const double *w, double *w_bar,
                      const int *obs, const double *feats, double *feats_bar,
                      double *reproj_err, double *reproj_err_bar, double *w_err,
                      double *w_err_bar);
void ba_objective_jvp(int n, int m, int p, const double *cams, const double *cams_dot,
                      const double *X, const double *X_dot, const double *w,
                      const double *w_dot, const int *obs, const double *feats,
                      const double *feats_dot, double *reproj_err, double *reproj_err_dot,
                      double *w_err, double *w_err_dot);

enum { CP = 11, NCAMS = 49, PER_OBS = 100 };

typedef struct {
  int n, m, p;
  double *cams, *X, *w, *feats;
  int *obs;
} Ba;

// the active inputs as one set of adjoints or tangents
typedef struct {
  double *c, *x, *w, *f;
} Vec;

static void vec_alloc(Vec *v, const Ba *a) {
  v->c = bench_dalloc(CP * a->n);
  v->x = bench_dalloc(3 * a->m);
  v->w = bench_dalloc(a->p);
  v->f = bench_dalloc(2 * a->p);
}
static void vec_fill(Vec *v, const Ba *a, unsigned seed) {
  bench_fill(v->c, CP * a->n, seed, -1.0, 1.0);
  bench_fill(v->x, 3 * a->m, seed + 1, -1.0, 1.0);
  bench_fill(v->w, a->p, seed + 2, -1.0, 1.0);
  bench_fill(v->f, 2 * a->p, seed + 3, -1.0, 1.0);
}
static void vec_zero(Vec *v, const Ba *a) {
  memset(v->c, 0, (size_t)CP * a->n * sizeof(double));
  memset(v->x, 0, (size_t)3 * a->m * sizeof(double));
  memset(v->w, 0, (size_t)a->p * sizeof(double));
  memset(v->f, 0, (size_t)2 * a->p * sizeof(double));
}
static void vec_free(Vec *v) { free(v->c); free(v->x); free(v->w); free(v->f); }
static double vec_inner(const Vec *u, const Vec *v, const Ba *a) {
  return bench_inner(u->c, v->c, NULL, NULL, CP * a->n) +
         bench_inner(u->x, v->x, NULL, NULL, 3 * a->m) +
         bench_inner(u->w, v->w, NULL, NULL, a->p) + bench_inner(u->f, v->f, NULL, NULL, 2 * a->p);
}

static void ba_make(Ba *a, int n, int m, int p, unsigned seed) {
  a->n = n;
  a->m = m;
  a->p = p;
  a->cams = bench_dalloc(CP * n);
  a->X = bench_dalloc(3 * m);
  a->w = bench_dalloc(p);
  a->feats = bench_dalloc(2 * p);
  a->obs = malloc((size_t)2 * (p > 0 ? p : 1) * sizeof(int));
  double lo[CP] = {-0.2, -0.2, -0.2, -0.5, -0.5, -6.0, 0.8, -0.1, -0.1, -0.05, -0.01};
  double hi[CP] = {0.2, 0.2, 0.2, 0.5, 0.5, -4.0, 1.2, 0.1, 0.1, 0.05, 0.01};
  double r[CP];
  for (int c = 0; c < n; c++) {
    bench_fill(r, CP, seed * 1000 + c, 0.0, 1.0);
    for (int j = 0; j < CP; j++)
      a->cams[c * CP + j] = c == 0 && j < 3 ? 0.0 : lo[j] + (hi[j] - lo[j]) * r[j];
  }
  bench_fill(a->X, 3 * m, seed + 1, -1.0, 1.0);
  bench_fill(a->w, p, seed + 2, 0.8, 1.2);
  bench_fill(a->feats, 2 * p, seed + 3, -0.3, 0.3);
  double *pt = bench_dalloc(p);
  bench_fill(pt, p, seed + 4, 0.0, m);
  for (int i = 0; i < p; i++) {
    a->obs[2 * i] = i % n;
    a->obs[2 * i + 1] = i < m ? i : (int)pt[i];
  }
  free(pt);
}

static void ba_free(Ba *a) { free(a->cams); free(a->X); free(a->w); free(a->feats); free(a->obs); }

// L = <su, reproj_err> + <sw, w_err> from the sequential original
static double L_seq(const Ba *a, const double *su, const double *sw, double *re, double *we) {
  ba_objective_seq(a->n, a->m, a->p, a->cams, a->X, a->w, a->obs, a->feats, re, we);
  return bench_inner(su, re, NULL, NULL, 2 * a->p) + bench_inner(sw, we, NULL, NULL, a->p);
}

// Central difference of L_seq in p[j] against f_vjp's g (step 1e-6: smooth, not
// polynomial).
static void check_fd(Bench *b, const char *label, const char *what, const Ba *a,
                     const double *su, const double *sw, double *re, double *we, double *p,
                     const double *g, int len, int nf) {
  const double h = 1e-6;
  int cnt = nf < 0 || nf > len ? len : nf;
  for (int k = 0; k < cnt; k++) {
    int j = nf < 0 ? k : (int)((long)k * (len - 1) / (cnt > 1 ? cnt - 1 : 1));
    double v = p[j];
    p[j] = v + h; double fp = L_seq(a, su, sw, re, we);
    p[j] = v - h; double fm = L_seq(a, su, sw, re, we);
    p[j] = v;
    char buf[96];
    snprintf(buf, sizeof buf, "%s[%d] (finite difference)", what, j);
    bench_check_vjp_fd(b, bench_what(label, buf), g[j], fp, fm, h);
  }
}

// All checks on one input (label NULL: the timed input): the residuals of every variant
// against the sequential C; f_vjp with seeds su, sw in [0.5, 1.5) accumulates (non-zero
// initial adjoints give them plus the gradient from zero) and leaves the seeds 0; the
// gradient against finite differences at nf entries of every input (all if nf < 0; at the
// timed input the cameras only, whose derivatives sum over many observations: those of one
// point or observation are too small for the rounding of L over all of them); f_jvp's
// tangents against <gradient, tangent>.
static void check_all(Bench *b, const char *label, Ba *a, int nf) {
  int p = a->p;
  double *su = bench_dalloc(2 * p), *sw = bench_dalloc(p), *res = bench_dalloc(2 * p),
         *wes = bench_dalloc(p), *re = bench_dalloc(2 * p), *we = bench_dalloc(p),
         *rb = bench_dalloc(2 * p), *wb = bench_dalloc(p), *zero = bench_dalloc(2 * p);
  Vec v0, vb, vz, vd;
  vec_alloc(&v0, a); vec_alloc(&vb, a); vec_alloc(&vz, a); vec_alloc(&vd, a);
  bench_fill(su, 2 * p, 70, 0.5, 1.5);
  bench_fill(sw, p, 71, 0.5, 1.5);
  memset(zero, 0, (size_t)2 * (p > 0 ? p : 1) * sizeof *zero);
  ba_objective_seq(a->n, a->m, p, a->cams, a->X, a->w, a->obs, a->feats, res, wes);
  ba_objective(a->n, a->m, p, a->cams, a->X, a->w, a->obs, a->feats, re, we);
  bench_check_array(b, bench_what(label, "primal reproj_err vs sequential C"), re, res, 2 * p, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "primal w_err vs sequential C"), we, wes, p, BENCH_RTOL);
  vec_fill(&v0, a, 72);
  vec_fill(&vb, a, 72);
  bench_dcopy(rb, su, 2 * p);
  bench_dcopy(wb, sw, p);
  ba_objective_vjp(a->n, a->m, p, a->cams, vb.c, a->X, vb.x, a->w, vb.w, a->obs, a->feats, vb.f,
                   re, rb, we, wb);
  bench_check_array(b, bench_what(label, "ba_objective_vjp reproj_err vs sequential C"), re, res, 2 * p, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "ba_objective_vjp w_err vs sequential C"), we, wes, p, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "ba_objective_vjp reproj_err_bar on exit (0)"), rb, zero, 2 * p, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "ba_objective_vjp w_err_bar on exit (0)"), wb, zero, p, BENCH_RTOL);
  vec_zero(&vz, a);
  bench_dcopy(rb, su, 2 * p);
  bench_dcopy(wb, sw, p);
  ba_objective_vjp(a->n, a->m, p, a->cams, vz.c, a->X, vz.x, a->w, vz.w, a->obs, a->feats, vz.f,
                   re, rb, we, wb);
  for (int i = 0; i < CP * a->n; i++) v0.c[i] += vz.c[i];
  for (int i = 0; i < 3 * a->m; i++) v0.x[i] += vz.x[i];
  for (int i = 0; i < p; i++) v0.w[i] += vz.w[i];
  for (int i = 0; i < 2 * p; i++) v0.f[i] += vz.f[i];
  bench_check_array(b, bench_what(label, "ba_objective_vjp cams_bar accumulates"), vb.c, v0.c, CP * a->n, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "ba_objective_vjp X_bar accumulates"), vb.x, v0.x, 3 * a->m, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "ba_objective_vjp w_bar accumulates"), vb.w, v0.w, p, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "ba_objective_vjp feats_bar accumulates"), vb.f, v0.f, 2 * p, BENCH_RTOL);
  check_fd(b, label, "d/dcams", a, su, sw, re, we, a->cams, vz.c, CP * a->n, nf < 0 ? -1 : 2 * CP);
  if (nf < 0) {
    check_fd(b, label, "d/dX", a, su, sw, re, we, a->X, vz.x, 3 * a->m, -1);
    check_fd(b, label, "d/dw", a, su, sw, re, we, a->w, vz.w, p, -1);
    check_fd(b, label, "d/dfeats", a, su, sw, re, we, a->feats, vz.f, 2 * p, -1);
  }
  // f_jvp: <su, reproj_err_dot> + <sw, w_err_dot> = <gradient, tangent>
  vec_fill(&vd, a, 73);
  ba_objective_jvp(a->n, a->m, p, a->cams, vd.c, a->X, vd.x, a->w, vd.w, a->obs, a->feats, vd.f,
                   re, rb, we, wb);
  bench_check_array(b, bench_what(label, "ba_objective_jvp reproj_err vs sequential C"), re, res, 2 * p, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "ba_objective_jvp <seeds, tangents> vs <vjp gradient, tangent>"),
                     bench_inner(su, rb, NULL, NULL, 2 * p) + bench_inner(sw, wb, NULL, NULL, p),
                     vec_inner(&vz, &vd, a), BENCH_RTOL);
  free(su); free(sw); free(res); free(wes); free(re); free(we); free(rb); free(wb); free(zero);
  vec_free(&v0); vec_free(&vb); vec_free(&vz); vec_free(&vd);
}

static void check_small(Bench *b, int n, int m, int p, unsigned seed) {
  Ba a;
  char label[64];
  ba_make(&a, n, m, p, seed);
  snprintf(label, sizeof label, "n = %d, m = %d, p = %d", n, m, p);
  check_all(b, label, &a, -1);
  ba_free(&a);
}

// the timed calls
static Ba A;
static Vec TB;
static double *tre, *twe, *trb, *twb;

static double run_seq(void) {
  ba_objective_seq(A.n, A.m, A.p, A.cams, A.X, A.w, A.obs, A.feats, tre, twe);
  return tre[0];
}
static double run_primal(void) {
  ba_objective(A.n, A.m, A.p, A.cams, A.X, A.w, A.obs, A.feats, tre, twe);
  return tre[0];
}
static double run_vjp(void) {
  for (int i = 0; i < 2 * A.p; i++) trb[i] = 1.0;
  for (int i = 0; i < A.p; i++) twb[i] = 1.0;
  ba_objective_vjp(A.n, A.m, A.p, A.cams, TB.c, A.X, TB.x, A.w, TB.w, A.obs, A.feats, TB.f, tre,
                   trb, twe, twb);
  return tre[0];
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "legacy_ba", argc, argv);
  int p = b.n / PER_OBS < 1 ? 1 : b.n / PER_OBS;
  b.n = p;
  ba_make(&A, NCAMS, p / 4 < 1 ? 1 : p / 4, p, 40);
  printf("# legacy_ba: n = %d cameras, m = %d points, p = %d observations "
         "(examples/legacy/ba/ba.c)\n", A.n, A.m, p);
  fflush(stdout);

  // ---- checks (once, before timing) ----
  check_all(&b, NULL, &A, 0);
  check_small(&b, 1, 1, 1, 41);
  check_small(&b, 2, 3, 5, 42);
  check_small(&b, 3, 4, 9, 43);

  // ---- timing ----
  vec_alloc(&TB, &A);
  vec_zero(&TB, &A);
  tre = bench_dalloc(2 * p); twe = bench_dalloc(p); trb = bench_dalloc(2 * p); twb = bench_dalloc(p);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);

  free(tre); free(twe); free(trb); free(twb);
  vec_free(&TB);
  ba_free(&A);
  return b.warnings ? 3 : 0;
}
