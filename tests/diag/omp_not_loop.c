// language.md 11: an OpenMP loop directive must be followed by a for loop
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma omp parallel for
  {
    y[0] = x[0];
  }
}
