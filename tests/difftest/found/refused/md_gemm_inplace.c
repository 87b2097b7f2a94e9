// REFUSED (adsoac exits 1), found writing tests/e2e/md_linalg.c, reduced by hand:
// PolyBench gemm's in-place update C[i][j] = beta * C[i][j] + acc with maps over i and j (an
// array of arrays, each element read and written by its own iteration only). README lists
// the limitation for an in-place update in a nested loop of a parallel loop; with nested
// maps the update is in the body of the inner parallel loop, at its own element, so the
// 1-D rule (an in-place y[i] = y[i] * y[i] at the loop index is accepted) does not reach it.
// The same with C[i][j] = C[i][j] * C[i][j] + acc is refused the same way.
// adsoac says:
//   error: this loop overwrites elements of 'C' that a parallel loop reads, in a nested loop
//   (or at more than 8 places): saving them is not supported yet
// e2e: sizes n=0,1,2,5 m=1,1,3,4 k=1,2,1,3
// e2e: scalar alpha range(-2,2)
// e2e: scalar beta range(-2,2)
// e2e: array C[n*m] range(-1,1)
// e2e: array A[n*k] range(-1,1)
// e2e: array B[m*k] range(-1,1)
#pragma adsoac grad
void md_gemm_inplace(int n, int m, int k, double alpha, double beta, double C[n][m],
                     const double A[n][k], const double B[m][k]) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 0; j < m; j++) {
      double acc = 0.0;
      for (int l = 0; l < k; l++) acc += alpha * A[i][l] * B[j][l];
      C[i][j] = beta * C[i][j] + acc;
    }
  }
}
