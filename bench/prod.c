// prod: p = c * prod_i x[i]. A reduce(*), differentiated zero-safe
// (language.md §7: exact with one zero factor, all-zero adjoints with two or more).
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed prod_seq) and through adsoac (prod, prod_vjp, prod_jvp).

#pragma adsoac grad
double prod(int n, double c, const double *x) {
  double p = c;
#pragma adsoac reduce(*: p)
  for (int i = 0; i < n; i++)
    p *= x[i];
  return p;
}
