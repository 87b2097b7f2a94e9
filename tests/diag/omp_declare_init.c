// language.md 11: a declared reduction whose initializer is a function call is not read yet
static double smax(double a, double b) { return a > b ? a : b; }
static void lowest(double *p) { *p = -1e300; }
#pragma omp declare reduction(mx : double : omp_out = smax(omp_out, omp_in)) initializer(lowest(&omp_priv))

#pragma adsoac grad
double f(int n, const double *x) {
  double m = -1e300;
#pragma omp parallel for reduction(mx: m)
  for (int i = 0; i < n; i++) m = smax(m, x[i]);
  return m;
}
