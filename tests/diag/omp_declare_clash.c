// language.md 11: two declared reductions of one name with different combiners: refused
// (which one a loop means would be a guess)
static double smax(double a, double b) { return a > b ? a : b; }
#pragma omp declare reduction(mx : double : omp_out = smax(omp_out, omp_in)) initializer(omp_priv = -1e300)
#pragma omp declare reduction(mx : double : omp_out += omp_in)

#pragma adsoac grad
double f(int n, const double *x) {
  double m = -1e300;
#pragma omp parallel for reduction(mx: m)
  for (int i = 0; i < n; i++) m = smax(m, x[i]);
  return m;
}
