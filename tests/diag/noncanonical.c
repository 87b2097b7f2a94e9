#pragma adsoac grad
void f(int n, double *y) {
#pragma adsoac map
  for (int i = 1; i < n; i *= 2)
    y[i] = 1.0;
}
