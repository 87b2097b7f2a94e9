#pragma adsoac grad wrt(n)
double f(int n, const double *x) {
  return x[0];
}
