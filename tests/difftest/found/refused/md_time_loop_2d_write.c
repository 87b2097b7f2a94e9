// REFUSED (adsoac exits 1), found writing tests/e2e/md_stencils.c, reduced by hand:
// a write B[i][j] to an array-of-arrays parameter (VLA `double B[n][n]`, macro-sized
// `double B[N][N]` or `double (*B)[N]` alike) in a map that stands in a sequential time loop.
// The same map without the time loop translates, and the flat form B[i*n + j] in the time
// loop translates too; PolyBench's jacobi-2d / heat-3d are written exactly this way.
// adsoac says:
//   error: cannot show that the iterations write different elements of 'B'
// e2e: sizes n=0,1,3,6
// e2e: int tsteps = 2
// e2e: array A[n*n] range(-1,1)
// e2e: array B[n*n] range(-1,1)
#pragma adsoac grad
void md_time_loop_2d_write(int tsteps, int n, double A[n][n], double B[n][n]) {
  for (int t = 0; t < tsteps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++)
        B[i][j] = 0.2 * A[i][j];
    }
  }
}
