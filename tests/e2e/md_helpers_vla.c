// Helpers whose parameters are variable-length arrays of arrays (language.md 2, 6): a VLA
// `double A[n][m]` whose extents are the helper's own parameters, a 3-D array passed on
// through two helpers (`double (*T)[n][n]` to `double T[n][n][n]`).
// e2e: c-only the helpers' VLA parameters are C, not C++ (README: the CUDA target compiles the rest of the file as C++)
// e2e: func vla_sweep
// e2e: sizes n=0,1,2,5 m=1,1,3,4
// e2e: array A[n*m] range(-1,1)
// e2e: array B[n*m] range(-1,1)
// e2e: func cube
// e2e: sizes n=0,1,2,3
// e2e: array T[n*n*n] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

static double cell(int n, int m, const double A[n][m], int i, int j) {
  double l = j > 0 ? A[i][j - 1] : 0.0, r = j + 1 < m ? A[i][j + 1] : 0.0;
  return 0.5 * A[i][j] + 0.25 * (l + r) * A[i][j];
}

static void sweep_row(int n, int m, const double A[n][m], double B[n][m], int i) {
  for (int j = 0; j < m; j++) B[i][j] = sin(cell(n, m, A, i, j));
}

#pragma adsoac grad
void vla_sweep(int n, int m, const double A[n][m], double B[n][m]) {
#pragma adsoac map
  for (int i = 0; i < n; i++) sweep_row(n, m, A, B, i);
}

static double plane(int n, const double T[n][n][n], int i) {
  double s = 0.0;
  for (int j = 0; j < n; j++)
    for (int k = 0; k < n; k++) s += T[i][j][k] * T[j][i][k];
  return s;
}

static double through(int n, const double (*T)[n][n], int i) {
  return plane(n, T, i);
}

#pragma adsoac grad
void cube(int n, const double T[n][n][n], double y[n]) {
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = through(n, T, i);
}

