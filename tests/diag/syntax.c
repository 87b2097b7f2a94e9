#pragma adsoac grad
void f(int n, double *y) {
  y[0] = (1.0;
}
