static double fact(double x) {
  if (x < 1) return 1;
  return x * fact(x - 1);
}
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = fact(x[i]);
}
