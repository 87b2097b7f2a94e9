// Strip-mined loops nested in one another: 5 x stripmine(16) is 80 levels, more than 64
// (the reverse sweep re-runs the levels inside each level: code quadratic in the nesting)
#pragma adsoac grad
double f(int n, const double *x) {
  double s = 1.0;
#pragma adsoac stripmine(16)
  for (int a = 0; a < n; a++) {
#pragma adsoac stripmine(16)
    for (int b = 0; b < n; b++) {
#pragma adsoac stripmine(16)
      for (int c = 0; c < n; c++) {
#pragma adsoac stripmine(16)
        for (int d = 0; d < n; d++) {
#pragma adsoac stripmine(16)
          for (int e = 0; e < n; e++)
            s = s * x[e] + 1.0;
        }
      }
    }
  }
  return s;
}
