// Arrays of arrays written by rows (language.md 2): the map check takes A[i][j] by its row
// when the flat index cannot show the iterations apart (VLA extents the test cannot bound
// away from 0, or a macro-sized row with a runtime column bound); C keeps every subscript
// within its extent, so different rows are different elements: a time loop writing B[i][j]
// of VLA parameters, and macro-sized rows with j < n.
// e2e: sizes n=0,1,3,6
// e2e: int tsteps = 2
// e2e: readonly A
// e2e: array A[n*n] range(-1,1)
// e2e: array B[n*n] range(-1,1)
// e2e: func macro_rows
// e2e: sizes n=0,1,4,9
// e2e: readonly A
// e2e: array A[81] range(-1,1)
// e2e: array B[81] range(-1,1)
#define N 9

#pragma adsoac grad
void time_rows(int tsteps, int n, double A[n][n], double B[n][n]) {
  for (int t = 0; t < tsteps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) B[i][j] = 0.2 * A[i][j] + 0.5 * A[i][j] * A[i][j] * t;
    }
  }
}

#pragma adsoac grad
void macro_rows(int n, double A[N][N], double B[N][N]) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 0; j < n; j++) B[i][j] = 0.2 * A[i][j] * A[i][j];
  }
}
