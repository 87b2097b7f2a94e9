// y[i + j] with j the index of a nested map: iterations i and i + 1 write the same elements
// (i = 0, j = 1 and i = 1, j = 0). The nested index varies; it was taken for an invariant
// before and the loop accepted.
#pragma adsoac grad
void overlap(int n, int m, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 0; j < m; j++)
      y[i + j] = x[i] * x[j];
  }
}
