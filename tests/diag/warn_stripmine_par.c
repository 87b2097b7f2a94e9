// stripmine(L) inside a parallel loop's body: a warning (no states are saved there).
#pragma adsoac grad
void f(int n, int d, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0;
#pragma adsoac stripmine(2)
    for (int j = 0; j < d; j++) s = s * 0.5 + x[j];
    y[i] = s;
  }
}
