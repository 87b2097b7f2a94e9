// REFUSED (adsoac exits 1), found writing tests/e2e/md_stencils.c, reduced by hand:
// nested maps over i and j writing B[i][j] of a macro-sized parameter `double B[N][N]` with
// the bound j < n (n <= N rows used, as PolyBench's _PB_N): refused, while the same with a
// VLA parameter `double B[n][n]` translates (and so does a map on i only). j < n with n > N
// would index past a row, which C leaves undefined, so the rows are disjoint.
// adsoac says:
//   error: cannot show that the iterations write different elements of 'B'
// e2e: sizes n=0,1,4,9
// e2e: array A[81] range(-1,1)
// e2e: array B[81] range(-1,1)
#define N 9
#pragma adsoac grad
void md_nested_map_macro_rows(int n, double A[N][N], double B[N][N]) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 0; j < n; j++)
      B[i][j] = 0.2 * A[i][j];
  }
}
