// language.md 11: an OpenMP loop that updates a shared scalar without a reduction clause (a
// race in the original) is refused, naming the clause that would say it
#pragma adsoac grad
double f(int n, const double *x) {
  double s = 0.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
