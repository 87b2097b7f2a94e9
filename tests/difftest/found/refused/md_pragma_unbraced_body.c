// REFUSED (adsoac exits 1), found writing tests/e2e/md_stencils.c, reduced by hand:
// a marked loop that is the unbraced body of another marked loop (valid C: the directive
// stands on its own line between the outer for's header and the inner for) fails to parse.
// adsoac says:
//   error: expected ';'   (at the end of the outer for's header)
//   = hint: the file must be valid C11
// e2e: sizes n=0,1,3,6
// e2e: array A[n*n] range(-1,1)
// e2e: array B[n*n] range(-1,1)
#pragma adsoac grad
void md_pragma_unbraced_body(int n, double A[n][n], double B[n][n]) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
#pragma adsoac map
    for (int j = 0; j < n; j++)
      B[i][j] = 0.2 * A[i][j];
}
