void f(int n, double *y) {
#pragma adsoac grad
  for (int i = 0; i < n; i++)
    y[i] = 1.0;
}
