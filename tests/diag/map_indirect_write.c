#pragma adsoac grad
void f(int n, const double *x, const int *perm, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[perm[i]] = x[i];
}
