#define SQR(x) ((x) * (x))
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = SQR(x[i], 2);
}
