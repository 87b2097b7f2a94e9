#pragma adsoac grad
double f(int n, const double *x) {
  double t;
  if (n > 2)
    t = x[0];
  return t;
}
