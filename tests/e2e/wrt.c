// wrt(...) narrows the active read-only parameters. energy: only x is active (k and w are
// not, so energy_vjp has no k_bar/w_bar). scale: wrt(a) leaves x and b inactive but the
// written y is active anyway.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar k range(0.5,2)
// e2e: scalar a range(-2,2)
// e2e: array x[n] range(-1,1)
// e2e: array w[n] range(-1,1)
// e2e: array y[n+1] range(-1,1)

#pragma adsoac grad wrt(x)
double energy(int n, double k, const double *x, const double *w) {
  double e = 0.0;
#pragma adsoac reduce(+: e)
  for (int i = 0; i < n; i++) {
    double d = x[i] - w[i];
    e += 0.5 * k * d * d;
  }
  return e;
}

#pragma adsoac grad wrt(a)
void scale(int n, double a, double b, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + b * y[i];
}
