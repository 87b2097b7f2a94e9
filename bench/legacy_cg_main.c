// Timing driver for the legacy_cg benchmark: examples/legacy/cg/cg.c as it is (run.sh takes
// the annotated file from there; its static kernel is made global, its main local, and its
// file-scope sizes naa, firstrow, lastrow, firstcol, lastcol global: seq_naa ... in the
// sequential object). Links three objects:
//   conj_grad_seq                      cg.c compiled by cc directly (no OpenMP)
//   conj_grad, conj_grad_vjp, _jvp     adsoac's translation
// No hand-written adjoint: the hand columns show "-", and f_vjp is checked against finite
// differences of conj_grad_seq instead (bench/README.md).
// Usage: legacy_cg_bench [N [REPS]]. Prints one table row (after a '#' line saying what ran);
// warnings go to stderr.
// Problem size: a sparse symmetric matrix of order N / 1000 (the row's n column; 10000 at
// N = 10^7, at most 10^6) with 9 nonzeros per row (a band at distances 1, 7, 31, 97 and the
// diagonal, diagonally dominant with a small shift), 25 CG iterations (the kernel's cgitmax).
#include "harness.h"

void conj_grad_seq(int colidx[], int rowstr[], double x[], double z[], double a[], double p[],
                   double q[], double r[], double *rnorm);
void conj_grad(int colidx[], int rowstr[], double x[], double z[], double a[], double p[],
               double q[], double r[], double *rnorm);
void conj_grad_vjp(int *colidx, int *rowstr, double *x, double *x_bar, double *z, double *z_bar,
                   double *a, double *a_bar, double *p, double *p_bar, double *q, double *q_bar,
                   double *r, double *r_bar, double *rnorm, double *rnorm_bar);
void conj_grad_jvp(int *colidx, int *rowstr, double *x, double *x_dot, double *z, double *z_dot,
                   double *a, double *a_dot, double *p, double *p_dot, double *q, double *q_dot,
                   double *r, double *r_dot, double *rnorm, double *rnorm_dot);
extern int naa, firstrow, lastrow, firstcol, lastcol;
extern int seq_naa, seq_firstrow, seq_lastrow, seq_firstcol, seq_lastcol;

typedef struct {
  int n, nnz, *col, *row;
  double *a, *x;
} Sys;

static void set_size(int n) {
  naa = seq_naa = n;
  firstrow = seq_firstrow = firstcol = seq_firstcol = 0;
  lastrow = seq_lastrow = lastcol = seq_lastcol = n - 1;
}

static void sys_make(Sys *s, int n, unsigned seed) {
  static const int dist[] = {97, 31, 7, 1};
  s->n = n;
  s->col = malloc(sizeof(int) * (size_t)(9 * n + 1));
  s->row = malloc(sizeof(int) * (size_t)(n + 2));
  s->a = bench_dalloc(9 * n + 1);
  s->x = bench_dalloc(n + 2);
  double *v = bench_dalloc(9 * n + 1);
  bench_fill(v, 9 * n + 1, seed, -0.5, 0.5);
  bench_fill(s->x, n + 2, seed + 1, 0.5, 1.5);
  int m = 0;
  for (int i = 0; i < n; i++) { // (a symmetric value per pair: from the smaller index)
    s->row[i] = m;
    for (int k = 0; k < 9; k++) {
      int d = k < 4 ? -dist[k] : k == 4 ? 0 : dist[8 - k], j = i + d;
      if (j < 0 || j >= n) continue;
      int lo = i < j ? i : j;
      s->col[m] = j;
      s->a[m++] = d ? v[(size_t)lo * 9 + (k < 4 ? k : 8 - k)] : 2.05;
    }
  }
  s->row[n] = s->row[n + 1] = m;
  s->nnz = m;
  free(v);
}

static void sys_free(Sys *s) { free(s->col); free(s->row); free(s->a); free(s->x); }

static double *z, *p, *q, *r, *zs, *ps, *qs, *rs, *sz, *sp, *sq, *sr, *xb, *ab, *zb, *pb, *qb,
    *rb, *xd, *ad, *zd, *pd, *qd, *rd, *a0, *x0;

static void work_alloc(int n, int nnz) {
  double **v[] = {&z, &p, &q, &r, &zs, &ps, &qs, &rs, &sz, &sp, &sq, &sr, &xb, &zb, &pb, &qb,
                  &rb, &xd, &zd, &pd, &qd, &rd, &x0};
  for (size_t k = 0; k < sizeof v / sizeof *v; k++) *v[k] = bench_dalloc(n + 2);
  ab = bench_dalloc(nnz + 1), ad = bench_dalloc(nnz + 1), a0 = bench_dalloc(nnz + 1);
}

// L = <sz, z> + <sp, p> + <sq, q> + <sr, r> + 0.5 rnorm of the sequential original
static double L_seq(Sys *s) {
  double rn;
  conj_grad_seq(s->col, s->row, s->x, zs, s->a, ps, qs, rs, &rn);
  int m = s->n + 1;
  return 0.5 * rn + bench_inner(sz, zs, sp, ps, m) + bench_inner(sq, qs, sr, rs, m);
}

static void check_all(Bench *b, const char *label, Sys *s, int nf) {
  int n = s->n, m = n + 1;
  set_size(n);
  bench_fill(sz, m, 70, -1.0, 1.0), bench_fill(sp, m, 71, -1.0, 1.0);
  bench_fill(sq, m, 72, -1.0, 1.0), bench_fill(sr, m, 73, -1.0, 1.0);
  double L0 = L_seq(s), rn;
  conj_grad(s->col, s->row, s->x, z, s->a, p, q, r, &rn);
  bench_check_array(b, bench_what(label, "primal z vs sequential C"), z, zs, m, 1e-7);
  bench_check_array(b, bench_what(label, "primal r vs sequential C"), r, rs, m, 1e-7);
  for (int k = 0; k < m; k++) zb[k] = sz[k], pb[k] = sp[k], qb[k] = sq[k], rb[k] = sr[k], xb[k] = 0;
  memset(ab, 0, sizeof *ab * (size_t)(s->nnz + 1));
  double rnb = 0.5;
  conj_grad_vjp(s->col, s->row, s->x, xb, z, zb, s->a, ab, p, pb, q, qb, r, rb, &rn, &rnb);
  bench_check_array(b, bench_what(label, "vjp z vs sequential C"), z, zs, m, 1e-7);
  bench_check_scalar(b, bench_what(label, "vjp objective vs sequential C"),
                     0.5 * rn + bench_inner(sz, z, sp, p, m) + bench_inner(sq, q, sr, r, m), L0, 1e-7);
  for (int k = 0; k < nf; k++) { // f_vjp against central differences of the original
    for (int w = 0; w < 2; w++) {
      double *v = w ? s->a : s->x;
      int j = w ? (int)((long)k * (s->nnz - 1) / (nf - 1)) : (int)((long)k * (n - 1) / (nf - 1));
      double g = w ? ab[j] : xb[j], vj = v[j], h = 1e-6;
      v[j] = vj + h; double fp = L_seq(s);
      v[j] = vj - h; double fm = L_seq(s);
      v[j] = vj;
      char buf[96];
      snprintf(buf, sizeof buf, "d/d%s[%d] (finite difference)", w ? "a" : "x", j);
      bench_check_vjp_fd(b, bench_what(label, buf), g, fp, fm, h);
    }
  }
  // f_jvp: the objective's tangent = <x_bar, x_dot> + <a_bar, a_dot>
  bench_fill(xd, m, 74, -1.0, 1.0);
  bench_fill(ad, s->nnz, 75, -1.0, 1.0);
  double want = bench_inner(xb, xd, NULL, NULL, m) + bench_inner(ab, ad, NULL, NULL, s->nnz), rnd = 0;
  conj_grad_jvp(s->col, s->row, s->x, xd, z, zd, s->a, ad, p, pd, q, qd, r, rd, &rn, &rnd);
  double got = 0.5 * rnd + bench_inner(sz, zd, sp, pd, m) + bench_inner(sq, qd, sr, rd, m);
  bench_check_scalar(b, bench_what(label, "jvp tangent of L vs <vjp adjoints, tangents>"), got, want, 1e-7);
}

static Sys S;
static double run_seq(void) {
  double rn;
  conj_grad_seq(S.col, S.row, S.x, zs, S.a, ps, qs, rs, &rn);
  return rn;
}
static double run_primal(void) {
  double rn;
  conj_grad(S.col, S.row, S.x, z, S.a, p, q, r, &rn);
  return rn;
}
static double run_vjp(void) {
  double rn, rnb = 1.0;
  for (int k = 0; k < S.n + 1; k++) zb[k] = pb[k] = qb[k] = rb[k] = 1.0;
  return conj_grad_vjp(S.col, S.row, S.x, xb, z, zb, S.a, ab, p, pb, q, qb, r, rb, &rn, &rnb), rn;
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "legacy_cg", argc, argv);
  int n = b.n / 1000 < 200 ? 200 : b.n / 1000 > 1000000 ? 1000000 : b.n / 1000;
  b.n = n;
  printf("# legacy_cg: order %d, 9 nonzeros per row, 25 iterations (examples/legacy/cg/cg.c)\n", n);
  fflush(stdout);
  sys_make(&S, n, 80);
  work_alloc(n, S.nnz);
  check_all(&b, NULL, &S, 4);
  Sys t;
  sys_make(&t, 150, 81);
  check_all(&b, "order 150", &t, 6);
  sys_free(&t);
  set_size(n);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);
  sys_free(&S);
  return b.warnings ? 3 : 0;
}
