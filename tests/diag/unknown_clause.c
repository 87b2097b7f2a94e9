#pragma adsoac grad
void f(int n, double *y) {
#pragma adsoac reduce(+: s) private(t)
  for (int i = 0; i < n; i++)
    y[i] = 1.0;
}
