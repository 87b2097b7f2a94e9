// Helpers that take arrays of arrays (language.md 2, 6: inlined, their parameters in every
// array form): `const double A[][N]` read by rows, `double (*B)[N]` written at the
// iteration's row (VLA parameters: md_helpers_vla.c).
// e2e: sizes n=0,1,2,5,8
// e2e: func rownorms
// e2e: array A[64] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func fill_rows
// e2e: array c[n] range(-1,1)
// e2e: array B[64] range(-1,1)
#include <math.h>

#define N 8

static double rowsq(int m, const double A[][N], int i) {
  double s = 0.0;
  for (int j = 0; j < m; j++) s += A[i][j] * A[i][j];
  return s;
}

static void put_row(int m, double (*B)[N], int i, double c) {
  for (int j = 0; j < m; j++) B[i][j] = c * (j + 1);
}

// y[i] = sqrt(1 + |A_i|^2), weighted by the row's first element
#pragma adsoac grad
double rownorms(int n, const double A[N][N], double y[N]) {
  double t = 0.0;
#pragma adsoac reduce(+: t)
  for (int i = 0; i < n; i++) {
    y[i] = sqrt(1.0 + rowsq(n, A, i));
    t += y[i] * A[i][0];
  }
  return t;
}

#pragma adsoac grad
void fill_rows(int n, const double *c, double B[N][N]) {
#pragma adsoac map
  for (int i = 0; i < n; i++) put_row(n, B, i, c[i] * c[i]);
}
