// A scalar private to a parallel loop's iterations (assigned first in each) read after the
// loop: C gives it the last iteration's value, which adsoac does not keep: refused, naming
// the loop
#pragma adsoac grad
void f(int n, const double *x, double *y, double *out) {
  double t = 0.0;
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    t = x[i] * 2.0;
    y[i] = t * t;
  }
  out[0] = t;
}
