// language.md 11: a pragma of another tool in a marked function is not ignored in silence
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma scop
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma GCC ivdep
    for (int j = 0; j < 2; j++) s += x[i] * j;
    y[i] = s;
  }
#pragma endscop
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = y[i] * 2.0;
}
