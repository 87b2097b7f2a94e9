// language.md 11: an OpenMP loop read as a map; of its clauses that change no meaning,
// schedule(dynamic, 4) is kept in f, num_threads(nth) (a local) and simdlen(4) are left out with
// a warning; a firstprivate variable assigned in the loop gets
// a warning (every iteration starts from its value before the loop); an OpenMP directive and an
// adsoac pragma on one loop that disagree: adsoac's is the annotation, with a warning
#pragma adsoac grad
double f(int n, const double *x, double *y) {
  double s = 0.0, c = 2.0;
  int nth = 2;
#pragma omp parallel for simd schedule(dynamic, 4) num_threads(nth) simdlen(4) firstprivate(c)
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
