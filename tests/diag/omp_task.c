// language.md 11: an OpenMP construct with no reading as an annotation (task) in a marked
// function is refused, naming it
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp task
    y[i] = x[i] * 2.0;
  }
}
