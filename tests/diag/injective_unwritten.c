#pragma adsoac grad
void f(int n, const double *x, double *y, double *z) {
#pragma adsoac map injective(z)
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
