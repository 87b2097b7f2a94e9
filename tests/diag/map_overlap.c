// y[i] and y[i + 1] written by one map: iterations i and i + 1 write the same element (a race,
// shown by the dependence test). Both accesses are named.
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = x[i];
    y[i + 1] = -x[i];
  }
}
