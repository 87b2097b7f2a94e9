// hist(max) inside another parallel loop: its reverse mode is refused
#pragma adsoac grad
void rowmax(int n, int m, const int *bin, const double *x, double *h) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac hist(max: h[i * 4 : 4])
    for (int j = 0; j < m; j++)
      if (x[i * m + j] > h[i * 4 + bin[j]]) h[i * 4 + bin[j]] = x[i * m + j];
  }
}
