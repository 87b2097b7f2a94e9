// language.md 11: '#pragma omp atomic capture' (and read, write) is not read yet: refused
#pragma adsoac grad
void f(int n, const double *w, double h[4], double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double old;
#pragma omp atomic capture
    old = h[i % 4]++;
    y[i] = old * w[i];
  }
}
