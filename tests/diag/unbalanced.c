#pragma adsoac grad wrt(x
double f(int n, const double *x) {
  return 0.0;
}
