// Sum of squares with a loop-local temporary and a free active scalar a.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar a range(-2,2)
// e2e: array x[n] range(-1,1)

#pragma adsoac grad
double sumsq(int n, double a, const double *x) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double t = a * x[i] - 1.0;
    s += t * t;
  }
  return s;
}
