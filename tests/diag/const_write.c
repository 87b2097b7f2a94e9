#pragma adsoac grad
void f(int n, const double *x) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    x[i] = 0.0;
}
