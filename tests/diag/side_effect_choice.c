#pragma adsoac grad
void f(int n, const double *x, double *y) {
  int k = 0;
  while (k < n && (y[k] = x[k]) > 0) k++;
}
