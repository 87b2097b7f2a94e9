// Reverse loops run in two phases of chunks (ad/rev_map.c's acc_color, emit_par.c): nested
// loops whose reads reach neighbouring rows, so the adjoint updates of iterations a few rows
// apart meet.  The chunks are at least as wide as the rows one iteration's updates span:
// two rows either side (wide2d), a flat index one row and one column off (flat_rows), a
// row offset given at run time (offset_rows), a mirrored row whose coefficient differs in
// sign from the other read's (mirror: one chunk), a stride that is a parameter (all).
// The sizes give loops of 0 to 15 rows, so that one phase has several chunks; the e2e run
// checks with --check-schedules that no two chunks of one phase update one element.
// e2e: sizes n=0,1,3,9,17,17 m=1,2,5,4,3,1
// e2e: func wide2d
// e2e: array A[n*m] range(-1,1)
// e2e: array B[n*m] range(-1,1)
// e2e: func flat_rows
// e2e: array x[n*m+1] range(-1,1)
// e2e: array y[n*m] range(-1,1)
// e2e: func mirror
// e2e: array x[n*m] range(-1,1)
// e2e: array y[n*m] range(-1,1)
// e2e: func offset_rows
// e2e: sizes n=0,2,9,17,17 m=3,2,4,3,2 s=1,0,3,2,5
// e2e: array x[(n+s)*m] range(-1,1)
// e2e: array y[n*m] range(-1,1)
#include <math.h>

#pragma adsoac grad
void wide2d(int n, int m, const double A[n][m], double B[n][m]) {
#pragma adsoac map
  for (int i = 2; i < n - 2; i++) {
#pragma adsoac map
    for (int j = 1; j < m - 1; j++)
      B[i][j] = A[i - 2][j] * A[i][j] + A[i + 2][j] + sin(A[i][j - 1]) + A[i - 1][j + 1] * A[i + 1][j];
  }
}

#pragma adsoac grad
void flat_rows(int n, int m, const double *x, double *y) {
#pragma adsoac map
  for (int i = 1; i < n; i++) {
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[(i - 1) * m + j + 1] * x[i * m + j] + cos(x[(i + 1) * m + j - m]);
  }
}

#pragma adsoac grad
void mirror(int n, int m, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[(n - 1 - i) * m + j] * x[i * m + j];
  }
}

#pragma adsoac grad
void offset_rows(int n, int m, int s, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[(i + s) * m + j] * x[(i + s) * m + j] + x[i * m + j];
  }
}
