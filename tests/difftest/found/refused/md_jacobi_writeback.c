// REFUSED (adsoac exits 1), found writing tests/e2e/md_stencils.c, reduced by hand:
// PolyBench jacobi-2d's second half (A[i][j] = B[i][j] after B[i][j] = 0.2*(5-point of A)),
// one step, no time loop. README lists this limitation (an array a parallel loop reads in a
// nested loop, overwritten later); it matters for every 2-D stencil that writes back, even
// where the write is a plain copy and the first loop is linear in A (no value to save).
// adsoac says:
//   error: this loop overwrites elements of 'A' that a parallel loop reads, in a nested loop
//   (or at more than 8 places): saving them is not supported yet
// e2e: sizes n=0,1,3,6
// e2e: array A[n*n] range(-1,1)
// e2e: array B[n*n] range(-1,1)
#pragma adsoac grad
void md_jacobi_writeback(int n, double A[n][n], double B[n][n]) {
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
      A[i][j] = B[i][j];
  }
}
