#pragma adsoac grad
void f(int n, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = y[i + 1] * 2.0;
}
