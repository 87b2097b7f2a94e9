// a scan inside another parallel loop (a row-wise running sum): refused
#pragma adsoac grad
void rows(int n, int m, const double *x, double *y) {
#pragma adsoac map
  for (int k = 0; k < n; k++) {
    double acc = 0.0;
#pragma adsoac scan(+: acc)
    for (int i = 0; i < m; i++) {
      acc += x[k * m + i];
      y[k * m + i] = acc;
    }
  }
}
