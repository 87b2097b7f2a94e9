// language.md 11: an OpenMP loop read as a map; its clauses that change no meaning (schedule,
// num_threads) are left out with a warning; a firstprivate variable assigned in the loop gets
// a warning (every iteration starts from its value before the loop); an OpenMP directive and an
// adsoac pragma on one loop that disagree: adsoac's is the annotation, with a warning
#pragma adsoac grad
double f(int n, const double *x, double *y) {
  double s = 0.0, c = 2.0;
#pragma omp parallel for schedule(dynamic, 4) num_threads(2) firstprivate(c)
  for (int i = 0; i < n; i++) {
    c = c + x[i];
    y[i] = c * x[i];
  }
#pragma omp parallel for reduction(+: s)
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = y[i] * 2.0;
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; i++) s += y[i];
  return s;
}
