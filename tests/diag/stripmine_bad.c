#pragma adsoac grad
void f(int n, double *y) {
#pragma adsoac stripmine(0)
  for (int i = 0; i < n; i++)
    y[i] = 1.0;
}
