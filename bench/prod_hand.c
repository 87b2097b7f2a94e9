// Hand-written OpenMP adjoint of prod (bench/prod.c): what a careful programmer
// writes by hand. Same signature and semantics as adsoac's prod_vjp
// (language.md §2.1, zero-safe as §7): returns the primal and accumulates into
// c_bar, x_bar. With nz the number of zero factors among c, x[0..n) and q the
// product of the nonzero ones:
//   nz == 0: d p/d x[i] = p / x[i] (p = q);
//   nz == 1: the zero factor gets q, every other 0;
//   nz >= 2: every adjoint is 0.
// The gradient needs the whole product first, so two passes: product and zero
// count, then the gradient.

double prod_hand(int n, double c, double *restrict c_bar,
                 const double *restrict x, double *restrict x_bar,
                 double ret_bar) {
  double q = c == 0.0 ? 1.0 : c;
  int nz = c == 0.0;
#pragma omp parallel for schedule(static) reduction(*: q) reduction(+: nz)
  for (int i = 0; i < n; i++) {
    nz += x[i] == 0.0;
    q *= x[i] == 0.0 ? 1.0 : x[i];
  }
  double p = nz == 0 ? q : 0.0;
  double g = ret_bar * q;
  if (nz == 0) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
      x_bar[i] += g / x[i];
    *c_bar += g / c;
  } else if (nz == 1) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
      if (x[i] == 0.0) x_bar[i] += g;
    if (c == 0.0) *c_bar += g;
  }
  return p;
}
