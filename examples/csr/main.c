// examples/csr/main.c: builds a deterministic sparse matrix in CSR form (300 x 200, rows of
// 0 to 5 entries, repeated columns included), calls the generated csr_vjp, and prints, for a
// few entries of val and x, the adjoint next to a central finite difference of the generated
// primal csr; then checks csr_jvp along one direction against the vjp, and a second csr_vjp
// seeded through y (ret_bar = 0) against an explicit transposed product A^T u.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adsoac.h"

// the functions adsoac generates from csr.c (language.md §2.1, §2.2)
double csr(int nrows, const int *rowptr, const int *col, const double *val, const double *x,
           const double *b, double *y);
double csr_vjp(int nrows, const int *rowptr, const int *col, const double *val,
               double *val_bar, const double *x, double *x_bar, const double *b, double *y,
               double *y_bar, double ret_bar);
double csr_jvp(int nrows, const int *rowptr, const int *col, const double *val,
               const double *val_dot, const double *x, const double *x_dot, const double *b,
               double *y, double *y_dot, double *ret_dot);

enum { NROWS = 300, NCOLS = 200, MAXNNZ = 5 * NROWS };

static int rowptr[NROWS + 1], col[MAXNNZ], nnz;
static double val[MAXNNZ], x[NCOLS], b[NROWS];

static double loss_now(void) {
  double y[NROWS];
  return csr(NROWS, rowptr, col, val, x, b, y);
}

static double worst = 0.0;

// |g - ref| relative to |ref|, or to 0.01 where |ref| is smaller (near-zero derivatives)
static double relerr(double g, double ref) { return fabs(g - ref) / fmax(fabs(ref), 1e-2); }

static void check(const char *name, int idx, double *p, double g) {
  const double h = 1e-5, p0 = *p;
  *p = p0 + h;
  double fp = loss_now();
  *p = p0 - h;
  double fm = loss_now();
  *p = p0;
  double fd = (fp - fm) / (2 * h), err = relerr(g, fd);
  if (err > worst) worst = err;
  printf("  %-3s %5d  %17.10f  %17.10f  %9.2e\n", name, idx, g, fd, err);
}

static int fail(void) {
  printf("error: %s\n", adsoac_last_error());
  return 1;
}

int main(void) {
  for (int i = 0; i < NROWS; i++) {
    rowptr[i] = nnz;
    int count = i % 37 == 0 ? 0 : 1 + i % 5; // rows 0, 37, 74, ... are empty
    for (int k = 0; k < count; k++) {
      col[nnz] = (7 * i + 31 * k + k * k) % NCOLS;
      val[nnz] = k == 0 ? 2.0 + 0.1 * sin(0.3 * i) : -0.4 + 0.3 * cos(0.7 * nnz);
      nnz++;
    }
  }
  rowptr[NROWS] = nnz;
  for (int c = 0; c < NCOLS; c++) x[c] = cos(0.05 * c) + 0.2;
  for (int i = 0; i < NROWS; i++) b[i] = 0.3 * sin(0.2 * i);

  double y[NROWS], y_bar[NROWS] = {0}, val_bar[MAXNNZ] = {0}, x_bar[NCOLS] = {0};
  double loss = csr_vjp(NROWS, rowptr, col, val, val_bar, x, x_bar, b, y, y_bar, 1.0);
  if (adsoac_last_error()) return fail();
  printf("csr: %d x %d, nnz = %d, loss = %.12f (primal: %.12f)\n", NROWS, NCOLS, nnz, loss,
         loss_now());

  printf("  in  index   d loss (vjp)       finite difference  rel.err\n");
  const int vi[] = {0, 1, 2, nnz / 3, nnz / 2 + 1, nnz - 1};
  for (unsigned k = 0; k < sizeof vi / sizeof vi[0]; k++)
    check("val", vi[k], &val[vi[k]], val_bar[vi[k]]);
  const int xi[] = {0, 3, 31, NCOLS / 2, NCOLS - 1};
  for (unsigned k = 0; k < sizeof xi / sizeof xi[0]; k++)
    check("x", xi[k], &x[xi[k]], x_bar[xi[k]]);

  // forward mode along one direction: jvp must equal <gradient, direction>
  double val_dot[MAXNNZ], x_dot[NCOLS], y_dot[NROWS] = {0}, ret_dot = 0.0, dir = 0.0;
  for (int j = 0; j < nnz; j++) dir += val_bar[j] * (val_dot[j] = sin(1.3 * j));
  for (int c = 0; c < NCOLS; c++) dir += x_bar[c] * (x_dot[c] = cos(0.9 * c + 0.2));
  csr_jvp(NROWS, rowptr, col, val, val_dot, x, x_dot, b, y, y_dot, &ret_dot);
  if (adsoac_last_error()) return fail();
  double err = relerr(ret_dot, dir);
  if (err > worst) worst = err;
  printf("forward mode: jvp = %.10f, <vjp, dir> = %.10f, rel.err %.2e\n", ret_dot, dir, err);

  // seeded through the output y instead of the loss: x_bar = A^T u, and y_bar is 0 on exit
  // (csr overwrites y without reading it)
  double u[NROWS], xt[NCOLS] = {0}, at[NCOLS] = {0}, vt[MAXNNZ] = {0}, terr = 0.0, ymax = 0.0;
  for (int i = 0; i < NROWS; i++) y_bar[i] = u[i] = sin(0.11 * i + 0.4);
  csr_vjp(NROWS, rowptr, col, val, vt, x, xt, b, y, y_bar, 0.0);
  if (adsoac_last_error()) return fail();
  for (int i = 0; i < NROWS; i++)
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) at[col[j]] += val[j] * u[i];
  for (int c = 0; c < NCOLS; c++) terr = fmax(terr, relerr(xt[c], at[c]));
  for (int i = 0; i < NROWS; i++) ymax = fmax(ymax, fabs(y_bar[i]));
  if (terr > worst) worst = terr;
  if (ymax > worst) worst = ymax;
  printf("seeded through y: x_bar vs A^T u, rel.err %.2e; max |y_bar| on exit %.2e\n", terr,
         ymax);

  int ok = worst < 1e-6;
  printf("worst relative error %.2e\n", worst);
  printf("%s\n", ok ? "gradient check: ok" : "gradient check: FAILED");
  return ok ? 0 : 1;
}
