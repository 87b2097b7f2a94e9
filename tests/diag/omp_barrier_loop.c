// language.md 11: a barrier inside a parallel loop's body (which OpenMP forbids too) has no
// reading as an annotation: refused; one between the loops of a time loop is read as written
#pragma adsoac grad
void f(int n, int steps, const double *x, double *y) {
#pragma omp parallel
  {
    for (int t = 0; t < steps; t++) {
#pragma omp for
      for (int i = 0; i < n; i++) y[i] = y[i] * 0.5 + x[i];
#pragma omp barrier
    }
#pragma omp for
    for (int i = 0; i < n; i++) {
      y[i] = y[i] * x[i];
#pragma omp barrier
    }
  }
}
