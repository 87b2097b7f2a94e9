#pragma adsoac grad
void f(int n, double *y) {
#pragma adsoac map
  y[0] = 1.0;
}
