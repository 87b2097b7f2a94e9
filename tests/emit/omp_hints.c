// language.md 11: an OpenMP loop's schedule, num_threads, if and proc_bind are kept in the
// primal f on the C target (their parameters by name), left out of the derivatives and of the
// CUDA output; a loop with a declared operator (per-thread partials): the team's clauses on
// its parallel region, the schedule on its omp for
static double smax(double a, double b) { return a > b ? a : b; }
#pragma omp declare reduction(mx : double : omp_out = smax(omp_out, omp_in)) initializer(omp_priv = -1e300)

#pragma adsoac grad
double f(int n, int chunk, int nt, const double *x, double *y) {
  double m = -1e300;
#pragma omp parallel for schedule(dynamic, chunk) num_threads(nt) if(n > 1000)
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
#pragma omp parallel for reduction(mx: m) schedule(guided) proc_bind(close)
  for (int i = 0; i < n; i++) m = smax(m, y[i]);
  return m;
}
