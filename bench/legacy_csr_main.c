// Timing driver for the legacy_csr benchmark: examples/legacy/csr/csr.c as it is (run.sh
// takes the annotated file from there). Links three objects:
//   csr_residual_seq   csr.c compiled by cc directly (-Dcsr_residual=csr_residual_seq, no
//                      OpenMP; its helper spmv made local)
//   csr_residual, csr_residual_vjp, csr_residual_jvp   adsoac's translation
// No hand-written adjoint: the hand columns show "-", and f_vjp is checked against finite
// differences of csr_residual_seq instead (bench/README.md).
// Usage: legacy_csr_bench [N [REPS]]. Prints one table row (after a '#' line saying what
// ran); warnings go to stderr.
// Problem size: a pseudo-random square matrix of N / 40 rows (the row's n column), 0 to 20
// entries per row at uniformly random columns (about 10 per row: N / 4 entries), x and b in
// [-1, 1); N = 10^7 gives 2.5 * 10^5 rows, 2.5 * 10^6 entries (30 MB of vals and colidx, x of
// 2 MB read by a random gather). Timed: ret_bar = 1, y_bar = 0 (the vjp leaves it 0: y is
// written before it is read); vals_bar, x_bar, b_bar accumulate, not reset.
#include "harness.h"

double csr_residual_seq(int nrows, int ncols, const int *rowptr, const int *colidx,
                        const double *vals, const double *x, const double *b, double *y);
double csr_residual(int nrows, int ncols, const int *rowptr, const int *colidx,
                    const double *vals, const double *x, const double *b, double *y);
double csr_residual_vjp(int nrows, int ncols, const int *rowptr, const int *colidx,
                        const double *vals, double *vals_bar, const double *x, double *x_bar,
                        const double *b, double *b_bar, double *y, double *y_bar,
                        double ret_bar);
double csr_residual_jvp(int nrows, int ncols, const int *rowptr, const int *colidx,
                        const double *vals, const double *vals_dot, const double *x,
                        const double *x_dot, const double *b, const double *b_dot, double *y,
                        double *y_dot, double *ret_dot);

enum { PER_ROW = 40, MAXLEN = 20 };

typedef struct {
  int nrows, ncols, nnz;
  int *rowptr, *colidx;
  double *vals, *x, *b;
} Csr;

// Row lengths uniform in [0, maxlen], columns uniform in [0, ncols): empty rows and repeated
// columns within a row occur.
static void csr_make(Csr *A, int nrows, int ncols, int maxlen, unsigned seed) {
  double *len = bench_dalloc(nrows);
  bench_fill(len, nrows, seed, 0.0, maxlen + 1.0);
  A->nrows = nrows;
  A->ncols = ncols;
  A->rowptr = malloc((size_t)(nrows + 1) * sizeof(int));
  A->nnz = 0;
  for (int i = 0; i < nrows; i++) {
    A->rowptr[i] = A->nnz;
    A->nnz += (int)len[i];
  }
  A->rowptr[nrows] = A->nnz;
  free(len);
  double *col = bench_dalloc(A->nnz);
  bench_fill(col, A->nnz, seed + 1, 0.0, ncols);
  A->colidx = malloc((size_t)(A->nnz > 0 ? A->nnz : 1) * sizeof(int));
  for (int j = 0; j < A->nnz; j++) A->colidx[j] = (int)col[j];
  free(col);
  A->vals = bench_dalloc(A->nnz);
  A->x = bench_dalloc(ncols);
  A->b = bench_dalloc(nrows);
  bench_fill(A->vals, A->nnz, seed + 2, -1.0, 1.0);
  bench_fill(A->x, ncols, seed + 3, -1.0, 1.0);
  bench_fill(A->b, nrows, seed + 4, -1.0, 1.0);
}

static void csr_free(Csr *A) {
  free(A->rowptr); free(A->colidx); free(A->vals); free(A->x); free(A->b);
}

// L = seed * r + <s, y>, the scalar the checks' vjp computes the gradient of, from the
// sequential original
static double L_seq(const Csr *A, double seed, const double *s, double *y) {
  double v = seed * csr_residual_seq(A->nrows, A->ncols, A->rowptr, A->colidx, A->vals, A->x,
                                     A->b, y);
  for (int i = 0; i < A->nrows; i++) v += s[i] * y[i];
  return v;
}

// Central difference of L_seq in p[j] against f_vjp's g. r is quadratic in every single
// entry of vals, x, b, and y linear: the central difference is exact for any step, so a
// large one (0.5) keeps the rounding of the sum over all rows small.
static void check_fd_at(Bench *b, const char *label, const char *what, const Csr *A,
                        double seed, const double *s, double *y, double *p, int j, double g) {
  const double h = 0.5;
  double v = p[j];
  p[j] = v + h; double fp = L_seq(A, seed, s, y);
  p[j] = v - h; double fm = L_seq(A, seed, s, y);
  p[j] = v;
  char buf[96];
  snprintf(buf, sizeof buf, "%s[%d] (finite difference)", what, j);
  bench_check_vjp_fd(b, bench_what(label, buf), g, fp, fm, h);
}

// All checks on one input (label NULL: the timed input): primal and outputs of every
// variant against the sequential C; f_vjp accumulates (non-zero initial adjoints give the
// initial values plus the gradient from zero) and consumes y's seed (y_bar 0 on exit);
// f_vjp against finite differences at nf entries of vals, x and b (all if nf < 0); f_jvp's
// tangent of L against <gradient, tangent>.
static void check_all(Bench *b, const char *label, Csr *A, int nf) {
  const double seed = 1.5; // not 1: a dropped seed must show
  int nr = A->nrows, nc = A->ncols, nz = A->nnz;
  double *ys = bench_dalloc(nr), *y = bench_dalloc(nr), *s = bench_dalloc(nr);
  double *yb = bench_dalloc(nr), *zero = bench_dalloc(nr);
  double *v0 = bench_dalloc(nz), *vb = bench_dalloc(nz), *vz = bench_dalloc(nz), *vd = bench_dalloc(nz);
  double *x0 = bench_dalloc(nc), *xb = bench_dalloc(nc), *xz = bench_dalloc(nc), *xd = bench_dalloc(nc);
  double *b0 = bench_dalloc(nr), *bb = bench_dalloc(nr), *bz = bench_dalloc(nr), *bd = bench_dalloc(nr);
  bench_fill(s, nr, 60, 0.5, 1.5);
  memset(zero, 0, (size_t)nr * sizeof *zero);
  double r_seq = csr_residual_seq(nr, nc, A->rowptr, A->colidx, A->vals, A->x, A->b, ys);
  double r = csr_residual(nr, nc, A->rowptr, A->colidx, A->vals, A->x, A->b, y);
  bench_check_scalar(b, bench_what(label, "primal csr_residual vs sequential C"), r, r_seq, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "primal y vs sequential C"), y, ys, nr, BENCH_RTOL);
  // accumulate: from initial adjoints in [-1, 1), then from zero
  bench_fill(v0, nz, 61, -1.0, 1.0); bench_dcopy(vb, v0, nz);
  bench_fill(x0, nc, 62, -1.0, 1.0); bench_dcopy(xb, x0, nc);
  bench_fill(b0, nr, 63, -1.0, 1.0); bench_dcopy(bb, b0, nr);
  bench_dcopy(yb, s, nr);
  r = csr_residual_vjp(nr, nc, A->rowptr, A->colidx, A->vals, vb, A->x, xb, A->b, bb, y, yb, seed);
  bench_check_scalar(b, bench_what(label, "csr_residual_vjp result vs sequential C"), r, r_seq, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "csr_residual_vjp y vs sequential C"), y, ys, nr, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "csr_residual_vjp y_bar on exit (0)"), yb, zero, nr, BENCH_RTOL);
  memset(vz, 0, (size_t)nz * sizeof *vz);
  memset(xz, 0, (size_t)nc * sizeof *xz);
  memset(bz, 0, (size_t)nr * sizeof *bz);
  bench_dcopy(yb, s, nr);
  csr_residual_vjp(nr, nc, A->rowptr, A->colidx, A->vals, vz, A->x, xz, A->b, bz, y, yb, seed);
  for (int j = 0; j < nz; j++) v0[j] += vz[j];
  for (int c = 0; c < nc; c++) x0[c] += xz[c];
  for (int i = 0; i < nr; i++) b0[i] += bz[i];
  bench_check_array(b, bench_what(label, "csr_residual_vjp vals_bar accumulates"), vb, v0, nz, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "csr_residual_vjp x_bar accumulates"), xb, x0, nc, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "csr_residual_vjp b_bar accumulates"), bb, b0, nr, BENCH_RTOL);
  // the gradient from zero against finite differences of the sequential C
  int nv = nf < 0 || nf > nz ? nz : nf, nx = nf < 0 || nf > nc ? nc : nf,
      nb = nf < 0 || nf > nr ? nr : nf;
  for (int k = 0; k < nv; k++) {
    int j = nf < 0 ? k : (int)((long)k * (nz - 1) / (nv > 1 ? nv - 1 : 1));
    check_fd_at(b, label, "d/dvals", A, seed, s, y, A->vals, j, vz[j]);
  }
  for (int k = 0; k < nx; k++) {
    int j = nf < 0 ? k : (int)((long)k * (nc - 1) / (nx > 1 ? nx - 1 : 1));
    check_fd_at(b, label, "d/dx", A, seed, s, y, A->x, j, xz[j]);
  }
  for (int k = 0; k < nb; k++) {
    int j = nf < 0 ? k : (int)((long)k * (nr - 1) / (nb > 1 ? nb - 1 : 1));
    check_fd_at(b, label, "d/db", A, seed, s, y, A->b, j, bz[j]);
  }
  // f_jvp: seed * r_dot + <s, y_dot> = <gradient, tangent>
  bench_fill(vd, nz, 64, -1.0, 1.0);
  bench_fill(xd, nc, 65, -1.0, 1.0);
  bench_fill(bd, nr, 66, -1.0, 1.0);
  double r_dot = 0.0, *yd = yb; // y's initial tangent: never read (y is written first)
  r = csr_residual_jvp(nr, nc, A->rowptr, A->colidx, A->vals, vd, A->x, xd, A->b, bd, y, yd, &r_dot);
  bench_check_scalar(b, bench_what(label, "csr_residual_jvp result vs sequential C"), r, r_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "csr_residual_jvp <seeds, tangents> vs <vjp gradient, tangent>"),
                     seed * r_dot + bench_inner(s, yd, NULL, NULL, nr),
                     bench_inner(vz, vd, NULL, NULL, nz) + bench_inner(xz, xd, NULL, NULL, nc) +
                         bench_inner(bz, bd, NULL, NULL, nr),
                     BENCH_RTOL);
  free(ys); free(y); free(s); free(yb); free(zero);
  free(v0); free(vb); free(vz); free(vd); free(x0); free(xb); free(xz); free(xd);
  free(b0); free(bb); free(bz); free(bd);
}

static void check_small(Bench *b, int nrows, int ncols, int maxlen, unsigned seed) {
  Csr A;
  char label[64];
  csr_make(&A, nrows, ncols, maxlen, seed);
  snprintf(label, sizeof label, "%d x %d, %d entries", nrows, ncols, A.nnz);
  check_all(b, label, &A, -1);
  csr_free(&A);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "legacy_csr", argc, argv);
  int n = b.n / PER_ROW < 1 ? 1 : b.n / PER_ROW; // rows (and columns)
  b.n = n;
  Csr A;
  csr_make(&A, n, n, MAXLEN, 70);
  printf("# legacy_csr: %d x %d, %d entries (examples/legacy/csr/csr.c)\n", n, n, A.nnz);
  fflush(stdout);

  // ---- checks (once, before timing) ----
  check_all(&b, NULL, &A, 2);
  check_small(&b, 1, 1, 2, 80);
  check_small(&b, 7, 5, 4, 81);
  check_small(&b, 12, 3, 6, 82);

  // ---- timing ----
  double *y = bench_dalloc(n), *yb = bench_dalloc(n), *vb = bench_dalloc(A.nnz),
         *xb = bench_dalloc(n), *bb = bench_dalloc(n);
  memset(yb, 0, (size_t)n * sizeof *yb);
  memset(vb, 0, (size_t)A.nnz * sizeof *vb);
  memset(xb, 0, (size_t)n * sizeof *xb);
  memset(bb, 0, (size_t)n * sizeof *bb);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, csr_residual_seq(n, n, A.rowptr, A.colidx, A.vals, A.x, A.b, y));
  BENCH_TIME(&b, t_pri, csr_residual(n, n, A.rowptr, A.colidx, A.vals, A.x, A.b, y));
  BENCH_TIME(&b, t_vjp, csr_residual_vjp(n, n, A.rowptr, A.colidx, A.vals, vb, A.x, xb, A.b, bb, y, yb, 1.0));
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);

  free(y); free(yb); free(vb); free(xb); free(bb);
  csr_free(&A);
  return b.warnings ? 3 : 0;
}
