// Timing driver for the omp_cgstep benchmark: examples/openmp/cgstep/cgstep.c as it is (one
// conjugate-gradient step written to be called by every thread of the caller's parallel
// region: orphaned `omp for` loops, thread-local dot products merged under `omp atomic`,
// `omp barrier`; `#pragma adsoac grad` added). Links three objects:
//   cg_step_seq                        cgstep.c compiled by cc directly WITH -fopenmp: the
//                                      original OpenMP code (the seq-C column of this row),
//                                      called as OpenMP codes call it: inside
//                                      `#pragma omp parallel` in this driver
//   cg_step, cg_step_vjp, cg_step_jvp  adsoac's translation, called outside any region (a
//                                      plain function there, with loops of its own)
// No hand-written adjoint: f_vjp is checked against finite differences of the original.
// Usage: omp_cgstep_bench [N [REPS]]. Problem: a sparse symmetric matrix in CSR form of N / 5
// rows (the row's n column), a 5-point stencil on a grid of floor(sqrt(N / 5)) columns (the
// last grid row partial): off-diagonals in [-1, -0.25), one value per pair, diagonal 4.5
// (diagonally dominant, so p.q > 0), about N nonzeros; p, r, z in [-1, 1) on entry,
// dots = {r.r, 0, 0}.
// Checks: on the timed system and, when it has more than 4000 rows, on one of 4000 (the finite
// differences in a, p, dots[0] and dots[1], which need a small step, run only on 4000 rows or
// fewer: check_all).
// Every timed call first restores p, r, z and dots (q is written before it is read), and,
// for the vjp, the seeds p_bar = q_bar = r_bar = z_bar = 1, dots_bar = {1, 1, 1}: three (vjp:
// seven) vectors of copying next to the step's spmv and four vector loops. a_bar accumulates.
#include "harness.h"

void cg_step_seq(int n, const double *a, const int *col, const int *row, double *p, double *q,
                 double *r, double *z, double *dots);
void cg_step(int n, const double *a, const int *col, const int *row, double *p, double *q,
             double *r, double *z, double *dots);
void cg_step_vjp(int n, const double *a, double *a_bar, const int *col, const int *row,
                 double *p, double *p_bar, double *q, double *q_bar, double *r, double *r_bar,
                 double *z, double *z_bar, double *dots, double *dots_bar);
void cg_step_jvp(int n, const double *a, const double *a_dot, const int *col, const int *row,
                 double *p, double *p_dot, double *q, double *q_dot, double *r, double *r_dot,
                 double *z, double *z_dot, double *dots, double *dots_dot);

static int n, nnz, *col, *row;
static double *a, *p0, *r0, *z0, d0[3];      // the matrix, the inputs
static double *p, *q, *r, *z, d[3];          // the translation's state
static double *ps, *qs, *rs, *zs, ds[3];     // the original's state
static double *ab, *pb, *qb, *rb, *zb, db[3]; // adjoints
static double *sp, *sq, *sr, *sz, sd[3];     // seeds of the checks

// 5-point stencil on a grid of nx columns: row j couples to j - nx, j - 1, j + 1, j + nx
static void csr_make(void) {
  int nx = (int)sqrt((double)n);
  if (nx < 1) nx = 1;
  col = malloc(sizeof *col * (size_t)(5 * n + 1));
  row = malloc(sizeof *row * (size_t)(n + 1));
  a = bench_dalloc(5 * n + 1);
  double *e1 = bench_dalloc(n), *e2 = bench_dalloc(n); // (j, j + 1) and (j, j + nx)
  bench_fill(e1, n, 21, -1.0, -0.25);
  bench_fill(e2, n, 22, -1.0, -0.25);
  int m = 0;
  for (int j = 0; j < n; j++) {
    int k = j % nx;
    row[j] = m;
    if (j - nx >= 0) col[m] = j - nx, a[m++] = e2[j - nx];
    if (k > 0) col[m] = j - 1, a[m++] = e1[j - 1];
    col[m] = j, a[m++] = 4.5;
    if (k < nx - 1 && j + 1 < n) col[m] = j + 1, a[m++] = e1[j];
    if (j + nx < n) col[m] = j + nx, a[m++] = e2[j];
  }
  row[n] = m;
  nnz = m;
  free(e1), free(e2);
}

static double **vec[] = {&p0, &r0, &z0, &p, &q, &r, &z, &ps, &qs, &rs, &zs, &pb, &qb, &rb,
                         &zb, &sp, &sq, &sr, &sz};

// a system of `rows` rows: the matrix, the inputs, the states, the seeds
static void sys_make(int rows) {
  n = rows;
  csr_make();
  for (size_t k = 0; k < sizeof vec / sizeof *vec; k++) *vec[k] = bench_dalloc(n);
  ab = bench_dalloc(nnz);
  bench_fill(p0, n, 23, -1.0, 1.0);
  bench_fill(r0, n, 24, -1.0, 1.0);
  bench_fill(z0, n, 25, -1.0, 1.0);
  d0[0] = bench_inner(r0, r0, NULL, NULL, n), d0[1] = d0[2] = 0.0;
  bench_fill(sp, n, 26, 0.5, 1.5), bench_fill(sq, n, 27, 0.5, 1.5);
  bench_fill(sr, n, 28, 0.5, 1.5), bench_fill(sz, n, 29, 0.5, 1.5);
  sd[0] = 0.75, sd[1] = 1.25, sd[2] = 1.5;
}

static void sys_free(void) {
  for (size_t k = 0; k < sizeof vec / sizeof *vec; k++) free(*vec[k]);
  free(a), free(ab), free(col), free(row);
}

static void load(double *p_, double *r_, double *z_, double *d_) {
  bench_dcopy(p_, p0, n), bench_dcopy(r_, r0, n), bench_dcopy(z_, z0, n);
  memcpy(d_, d0, sizeof d0);
}

static double run_seq(void) {
  load(ps, rs, zs, ds);
#pragma omp parallel
  cg_step_seq(n, a, col, row, ps, qs, rs, zs, ds);
  return ds[2];
}
static double run_primal(void) {
  load(p, r, z, d);
  cg_step(n, a, col, row, p, q, r, z, d);
  return d[2];
}
static double run_vjp(void) {
  load(p, r, z, d);
  for (int j = 0; j < n; j++) pb[j] = qb[j] = rb[j] = zb[j] = 1.0;
  db[0] = db[1] = db[2] = 1.0;
  cg_step_vjp(n, a, ab, col, row, p, pb, q, qb, r, rb, z, zb, d, db);
  return d[2];
}
// L = <sp, p> + <sq, q> + <sr, r> + <sz, z> + <sd, dots> after the original's step
static double L_seq(void) {
  run_seq();
  return bench_inner(sp, ps, sq, qs, n) + bench_inner(sr, rs, sz, zs, n) +
         bench_inner(sd, ds, NULL, NULL, 3);
}

static void check_outputs(Bench *b, const char *label, const char *what) {
  char buf[96];
  const double *got[5] = {p, q, r, z, d}, *want[5] = {ps, qs, rs, zs, ds};
  const char *name[5] = {"p", "q", "r", "z", "dots"};
  for (int k = 0; k < 5; k++) {
    snprintf(buf, sizeof buf, "%s %s vs the original OpenMP", what, name[k]);
    bench_check_array(b, bench_what(label, buf), got[k], want[k], k < 4 ? n : 3, 1e-9);
  }
}

// Every check on the current system. L is quadratic in each r[j], linear in each z[j] and in
// dots[2]: exact differences for any step (0.25). In a, p, dots[0] and dots[1] it is a
// rational function whose differences need a small step (1e-5 sqrt(n)), which the rounding of
// the original's sums over n elements (~ sqrt(n) eps |L|) swamps at large n: those run only
// when `smooth` (n <= SMALL).
#define SMALL 4000
static void check_all(Bench *b, const char *label, int smooth) {
  run_seq();
  run_primal();
  check_outputs(b, label, "primal");
  load(p, r, z, d);
  bench_dcopy(pb, sp, n), bench_dcopy(qb, sq, n), bench_dcopy(rb, sr, n), bench_dcopy(zb, sz, n);
  memcpy(db, sd, sizeof db);
  memset(ab, 0, sizeof *ab * (size_t)nnz);
  cg_step_vjp(n, a, ab, col, row, p, pb, q, qb, r, rb, z, zb, d, db);
  check_outputs(b, label, "vjp");
  double *zero = bench_dalloc(n);
  memset(zero, 0, sizeof *zero * (size_t)n);
  bench_check_array(b, bench_what(label, "vjp q_bar on exit (0)"), qb, zero, n, 1e-9);
  free(zero);
  struct { const char *what; double *x, *g; int lo, hi, exact; } in[] = {
      {"d/dr (finite difference)", r0, rb, 0, n - 1, 1},
      {"d/dz (finite difference)", z0, zb, 0, n - 1, 1},
      {"d/ddots[2] (finite difference)", d0, db, 2, 2, 1},
      {"d/da (finite difference)", a, ab, 0, nnz - 1, 0},
      {"d/dp (finite difference)", p0, pb, 0, n - 1, 0},
      {"d/ddots[0..1] (finite difference)", d0, db, 0, 1, 0}};
  for (size_t w = 0; w < sizeof in / sizeof *in; w++) {
    if (!in[w].exact && !smooth) continue;
    int at[3] = {in[w].lo, (in[w].lo + in[w].hi) / 2, in[w].hi};
    for (int k = 0; k < 3; k++) {
      double xk = in[w].x[at[k]], h = in[w].exact ? 0.25 : 1e-5 * sqrt((double)n);
      in[w].x[at[k]] = xk + h; double fp = L_seq();
      in[w].x[at[k]] = xk - h; double fm = L_seq();
      in[w].x[at[k]] = xk;
      bench_check_vjp_fd(b, bench_what(label, in[w].what), in[w].g[at[k]], fp, fm, h);
    }
  }
  // f_jvp: <seeds, final tangents> = <vjp adjoints, initial tangents>
  double *ad = bench_dalloc(nnz), *pd = bench_dalloc(n), *qd = bench_dalloc(n);
  double *rd = bench_dalloc(n), *zd = bench_dalloc(n), dd[3] = {0.5, -0.25, 0.75};
  bench_fill(ad, nnz, 30, -1.0, 1.0), bench_fill(pd, n, 31, -1.0, 1.0);
  bench_fill(qd, n, 32, -1.0, 1.0), bench_fill(rd, n, 33, -1.0, 1.0);
  bench_fill(zd, n, 34, -1.0, 1.0);
  double want = bench_inner(ab, ad, NULL, NULL, nnz) + bench_inner(pb, pd, qb, qd, n) +
                bench_inner(rb, rd, zb, zd, n) + bench_inner(db, dd, NULL, NULL, 3);
  load(p, r, z, d);
  cg_step_jvp(n, a, ad, col, row, p, pd, q, qd, r, rd, z, zd, d, dd);
  bench_check_scalar(b, bench_what(label, "jvp tangent vs <vjp adjoints, tangents>"),
                     bench_inner(sp, pd, sq, qd, n) + bench_inner(sr, rd, sz, zd, n) +
                         bench_inner(sd, dd, NULL, NULL, 3),
                     want, 1e-8);
  free(ad), free(pd), free(qd), free(rd), free(zd);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "omp_cgstep", argc, argv);
  int rows = b.n / 5 < 1 ? 1 : b.n / 5;
  b.n = rows;
  // ---- checks ----
  if (rows > SMALL) { // (the rational entries on a system of SMALL rows)
    sys_make(SMALL);
    char label[32];
    snprintf(label, sizeof label, "%d rows", SMALL);
    check_all(&b, label, 1);
    sys_free();
  }
  sys_make(rows);
  printf("# omp_cgstep: %d rows, %d nonzeros (examples/openmp/cgstep/cgstep.c)\n", n, nnz);
  fflush(stdout);
  check_all(&b, NULL, rows <= SMALL);
  // ---- timing ----
  memset(ab, 0, sizeof *ab * (size_t)nnz);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);
  sys_free();
  return b.warnings ? 3 : 0;
}
