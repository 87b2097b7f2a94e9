#pragma adsoac grad
void f(int n, double *y) {
  int i = 0;
  while (i < n && y[i] > 0) { y[i] = 0.5 * y[i]; i++; }
}
