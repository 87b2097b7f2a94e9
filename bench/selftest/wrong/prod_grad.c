// DELIBERATELY WRONG: not zero-safe, every factor gets q / x[i] whatever the zeros (see bench/README.md).
// Hand-made stand-in for `adsoac --target=c bench/prod.c -o prod_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline before
// the translator exists. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output (forward sweep: product, zero count and product of the
// nonzero factors; then a separate adjoint sweep), zero-safe as language.md §7.

double prod(int n, double c, const double *restrict x) {
  double p = 1.0;
#pragma omp parallel for schedule(static) reduction(*: p)
  for (int i = 0; i < n; i++)
    p *= x[i];
  return c * p;
}

// Adjoint of one factor v of a product with nz zero factors, q the product of
// the nonzero ones.
static double prod_factor_bar(double v, long nz, double q) {
  (void)nz;
  return q / v;  // wrong: the zeros are ignored
}

double prod_vjp(int n, double c, double *c_bar, const double *restrict x,
                double *restrict x_bar, double ret_bar) {
  double p = 1.0, q = 1.0;       // forward sweep
  long nz = 0;
#pragma omp parallel for schedule(static) reduction(*: p, q) reduction(+: nz)
  for (int i = 0; i < n; i++) {
    p *= x[i];
    nz += x[i] == 0.0;
    q *= x[i] == 0.0 ? 1.0 : x[i];
  }
  p *= c;
  nz += c == 0.0;
  q *= c == 0.0 ? 1.0 : c;
  double p_bar = ret_bar;        // reverse sweep
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    x_bar[i] += p_bar * prod_factor_bar(x[i], nz, q);
  *c_bar += p_bar * prod_factor_bar(c, nz, q);
  return p;
}

double prod_jvp(int n, double c, double c_dot, const double *restrict x,
                const double *restrict x_dot, double *ret_dot) {
  double p = 1.0, q = 1.0, p_dot = 0.0;
  long nz = 0;
#pragma omp parallel for schedule(static) reduction(*: p, q) reduction(+: nz)
  for (int i = 0; i < n; i++) {
    p *= x[i];
    nz += x[i] == 0.0;
    q *= x[i] == 0.0 ? 1.0 : x[i];
  }
  p *= c;
  nz += c == 0.0;
  q *= c == 0.0 ? 1.0 : c;
#pragma omp parallel for schedule(static) reduction(+: p_dot)
  for (int i = 0; i < n; i++)
    p_dot += x_dot[i] * prod_factor_bar(x[i], nz, q);
  *ret_dot = p_dot + c_dot * prod_factor_bar(c, nz, q);
  return p;
}
