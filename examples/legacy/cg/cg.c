/* cg.c: the conjugate-gradient kernel of a NAS-CG-style benchmark, as the serial C versions
 * of such benchmarks are written (file-scope sizes and partition bounds, a static kernel with
 * 0-based CSR arrays passed as int a[], 25 iterations with scalar recurrences, the residual
 * norm through a pointer, scalars reused across loops), with #pragma adsoac lines added and
 * nothing else changed. The file keeps its own main: it builds a sparse symmetric positive
 * definite matrix, runs a few outer iterations of the inverse power method, prints zeta. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NA      700
#define NONZER  8
#define NITER   5
#define SHIFT   10.0
#define NZ      (NA*(NONZER+1)*(NONZER+1))

/* global variables */
static int naa, nzz;
static int firstrow, lastrow, firstcol, lastcol;
static double amult, tran;

static void conj_grad(int colidx[], int rowstr[], double x[], double z[], double a[],
                      double p[], double q[], double r[], double *rnorm);
static void makea(int n, double a[], int colidx[], int rowstr[]);
static double randlc(double *x, double a);

/*--------------------------------------------------------------------
      Floating point conjugate gradient: z ~ A^-1 x, cgitmax steps
---------------------------------------------------------------------*/
#pragma adsoac grad
static void conj_grad(int colidx[],
                      int rowstr[],
                      double x[],
                      double z[],
                      double a[],
                      double p[],
                      double q[],
                      double r[],
                      double *rnorm)
{
  int j, k;
  int cgit, cgitmax = 25;
  double d, sum, rho, rho0, alpha, beta;

  rho = 0.0;

  /* initialize: q = z = 0, r = p = x */
#pragma adsoac map
  for (j = 0; j < naa+1; j++) {
    q[j] = 0.0;
    z[j] = 0.0;
    r[j] = x[j];
    p[j] = r[j];
  }

  /* rho = r.r */
#pragma adsoac reduce(+: rho)
  for (j = 0; j < lastcol - firstcol + 1; j++) {
    rho = rho + r[j]*r[j];
  }

  /* the iterations */
  for (cgit = 1; cgit <= cgitmax; cgit++) {
    /* q = A.p, row by row */
#pragma adsoac map
    for (j = 0; j < lastrow - firstrow + 1; j++) {
      sum = 0.0;
      for (k = rowstr[j]; k < rowstr[j+1]; k++) {
        sum = sum + a[k]*p[colidx[k]];
      }
      q[j] = sum;
    }

    /* p.q */
    d = 0.0;
#pragma adsoac reduce(+: d)
    for (j = 0; j < lastcol - firstcol + 1; j++) {
      d = d + p[j]*q[j];
    }

    alpha = rho / d;
    rho0 = rho;

    /* z = z + alpha p, r = r - alpha q */
    rho = 0.0;
#pragma adsoac map
    for (j = 0; j < lastcol - firstcol + 1; j++) {
      z[j] = z[j] + alpha*p[j];
      r[j] = r[j] - alpha*q[j];
    }

    /* rho = r.r */
#pragma adsoac reduce(+: rho)
    for (j = 0; j < lastcol - firstcol + 1; j++) {
      rho = rho + r[j]*r[j];
    }

    beta = rho / rho0;

    /* p = r + beta p */
#pragma adsoac map
    for (j = 0; j < lastcol - firstcol + 1; j++) {
      p[j] = r[j] + beta*p[j];
    }
  }

  /* the residual norm ||x - A.z||: r = A.z first */
  sum = 0.0;
#pragma adsoac map
  for (j = 0; j < lastrow - firstrow + 1; j++) {
    d = 0.0;
    for (k = rowstr[j]; k < rowstr[j+1]; k++) {
      d = d + a[k]*z[colidx[k]];
    }
    r[j] = d;
  }

#pragma adsoac reduce(+: sum)
  for (j = 0; j < lastcol-firstcol+1; j++) {
    d   = x[j] - r[j];
    sum = sum + d*d;
  }

  *rnorm = sqrt(sum);
}

/* a pseudo-random number in (0, 1) from the linear congruential seed *x (46-bit), NAS style */
static double randlc(double *x, double a)
{
  const double r23 = 1.1920928955078125e-07, r46 = r23 * r23;
  const double t23 = 8.388608e+06, t46 = t23 * t23;
  double t1, t2, t3, t4, a1, a2, x1, x2, z;
  int j;

  t1 = r23 * a;
  a1 = (int) t1;
  a2 = a - t23 * a1;
  t1 = r23 * (*x);
  x1 = (int) t1;
  x2 = *x - t23 * x1;
  t1 = a1 * x2 + a2 * x1;
  j  = (int) (r23 * t1);
  t2 = j;
  z = t1 - t23 * t2;
  t3 = t23 * z + a2 * x2;
  j  = (int) (r46 * t3);
  t4 = j;
  *x = t3 - t46 * t4;
  return (r46 * (*x));
}

/* A = a symmetric, diagonally dominant sparse matrix of order n in CSR form: NONZER random
 * off-diagonal entries per row mirrored into their columns, the diagonal SHIFT + row sums */
static void makea(int n, double a[], int colidx[], int rowstr[])
{
  static double dense_row[NA];
  static int cols[NA][2 * NONZER + 2], ncols[NA];
  static double vals[NA][2 * NONZER + 2];
  int i, k, m;

  for (i = 0; i < n; i++) ncols[i] = 0;
  for (i = 0; i < n; i++) {
    for (k = 0; k < NONZER / 2; k++) {
      int c = (int) (n * randlc(&tran, amult));
      double v = randlc(&tran, amult) - 0.5;
      if (c == i || ncols[i] >= 2 * NONZER || ncols[c] >= 2 * NONZER) continue;
      cols[i][ncols[i]] = c; vals[i][ncols[i]++] = v;
      cols[c][ncols[c]] = i; vals[c][ncols[c]++] = v;
    }
  }
  m = 0;
  for (i = 0; i < n; i++) {
    double rowsum = 0.0;
    for (k = 0; k < n; k++) dense_row[k] = 0.0;
    for (k = 0; k < ncols[i]; k++) {
      dense_row[cols[i][k]] += vals[i][k];
      rowsum += fabs(vals[i][k]);
    }
    dense_row[i] = SHIFT + rowsum;
    rowstr[i] = m;
    for (k = 0; k < n; k++)
      if (dense_row[k] != 0.0) { a[m] = dense_row[k]; colidx[m] = k; m++; }
  }
  rowstr[n] = m;
  nzz = m;
}

int main(void)
{
  static int colidx[NZ], rowstr[NA+1];
  static double a[NZ], x[NA+2], z[NA+2], p[NA+2], q[NA+2], r[NA+2];
  double zeta, rnorm, norm_temp1, norm_temp2;
  int it, i;

  naa = NA;
  firstrow = 0; lastrow = NA - 1;
  firstcol = 0; lastcol = NA - 1;
  tran = 314159265.0;
  amult = 1220703125.0;
  makea(naa, a, colidx, rowstr);

  for (i = 0; i < NA+1; i++) x[i] = 1.0;
  zeta = 0.0;
  for (it = 1; it <= NITER; it++) {
    conj_grad(colidx, rowstr, x, z, a, p, q, r, &rnorm);
    norm_temp1 = 0.0; norm_temp2 = 0.0;
    for (i = 0; i < lastcol - firstcol + 1; i++) {
      norm_temp1 = norm_temp1 + x[i]*z[i];
      norm_temp2 = norm_temp2 + z[i]*z[i];
    }
    norm_temp2 = 1.0 / sqrt(norm_temp2);
    zeta = SHIFT + 1.0 / norm_temp1;
    printf("    %5d       %20.14e%20.13e\n", it, rnorm, zeta);
    for (i = 0; i < lastcol - firstcol + 1; i++) x[i] = norm_temp2 * z[i];
  }
  printf(" zeta = %20.13e\n", zeta);
  return 0;
}
