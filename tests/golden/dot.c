// Dot product: a + reduction over two read-only arrays.
// e2e: sizes n=0,1,2,7,64
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)

#pragma adsoac grad
double dot(int n, const double *x, const double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}
