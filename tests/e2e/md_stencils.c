// Stencils over arrays of arrays, as PolyBench writes them (language.md 2): a 2-D Jacobi
// step with C99 VLA parameters `double A[n][n]` (sizes from an earlier parameter) and nested
// maps, a 3-D heat step `double A[n][n][n]` (map over i, and nested maps over i, j, k), and a
// 2-D nonlinear stencil with macro-sized parameters `double A[N][N]` (n <= N used). Interior
// bounds 1..n-1: n = 0, 1, 2 have no interior (the outputs stay the inputs).
// Each function does two sweeps, B from A, then C from B (A const-qualified: const arrays of
// arrays); PolyBench's time loop and write back A from B: md_inplace.c, md_rows.c.
// e2e: sizes n=0,1,2,3,6
// e2e: func jacobi_2d
// e2e: array A[n*n] range(-1,1)
// e2e: array B[n*n] range(-1,1)
// e2e: array C[n*n] range(-1,1)
// e2e: func heat_3d
// e2e: array A[n*n*n] range(-1,1)
// e2e: array B[n*n*n] range(-1,1)
// e2e: array C[n*n*n] range(-1,1)
// e2e: func heat_3d_nested
// e2e: array A[n*n*n] range(-1,1)
// e2e: array B[n*n*n] range(-1,1)
// e2e: func stencil_macro
// e2e: sizes n=1
// e2e: array A[81] range(-1,1)
// e2e: array B[81] range(-1,1)
// e2e: array C[81] range(-1,1)
#define N 9

#pragma adsoac grad
void jacobi_2d(int n, const double A[n][n], double B[n][n], double C[n][n]) {
#pragma adsoac map
  for (int i = 1; i < n - 1; i++) {
#pragma adsoac map
    for (int j = 1; j < n - 1; j++)
      B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i - 1][j] + A[i + 1][j]);
  }
#pragma adsoac map
  for (int i = 1; i < n - 1; i++) {
#pragma adsoac map
    for (int j = 1; j < n - 1; j++)
      C[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i - 1][j] + B[i + 1][j]) * B[i][j];
  }
}

#pragma adsoac grad
void heat_3d(int n, const double A[n][n][n], double B[n][n][n], double C[n][n][n]) {
#pragma adsoac map
  for (int i = 1; i < n - 1; i++) {
    for (int j = 1; j < n - 1; j++) {
      for (int k = 1; k < n - 1; k++) {
        B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                   + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                   + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                   + A[i][j][k];
      }
    }
  }
#pragma adsoac map
  for (int i = 1; i < n - 1; i++) {
    for (int j = 1; j < n - 1; j++) {
      for (int k = 1; k < n - 1; k++) {
        C[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                   + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                   + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1])
                   + B[i][j][k] * B[i][j][k];
      }
    }
  }
}

#pragma adsoac grad
void heat_3d_nested(int n, const double A[n][n][n], double B[n][n][n]) {
#pragma adsoac map
  for (int i = 1; i < n - 1; i++) {
#pragma adsoac map
    for (int j = 1; j < n - 1; j++) {
#pragma adsoac map
      for (int k = 1; k < n - 1; k++) {
        B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                   + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                   + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                   + A[i][j][k] * A[i][j][k];
      }
    }
  }
}

// The rows' bound is the macro too (PolyBench without _PB_N): with j < n - 1 (n <= N) the
// write B[i][j] is refused, tests/difftest/found/refused/md_nested_map_macro_rows.c.
#pragma adsoac grad
void stencil_macro(const double A[N][N], double B[N][N], double C[N][N]) {
#pragma adsoac map
  for (int i = 1; i < N - 1; i++) {
    for (int j = 1; j < N - 1; j++)
      B[i][j] = A[i][j] + 0.1 * (A[i - 1][j] * A[i + 1][j] - A[i][j - 1] * A[i][j + 1]);
  }
#pragma adsoac map
  for (int i = 1; i < N - 1; i++) {
#pragma adsoac map
    for (int j = 1; j < N - 1; j++)
      C[i][j] = 0.5 * (B[i][j] + A[i][j]) * B[i][j];
  }
}
