// language.md 11: a pragma of another tool in a marked function is not ignored in silence; a
// compiler's loop hint before a sequential loop is kept for that loop in f (C target; nvcc
// reads unroll), the rest are left out (an OpenMP loop directive is read as a map: no warning)
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma scop
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma GCC ivdep
    for (int j = 0; j < 2; j++) s += x[i] * j;
    for (int j = 0; j < 3; j++)
#pragma unroll 2
      for (int k = 0; k < 2; k++) s += x[i] * k * j;
    y[i] = s;
  }
#pragma endscop
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = y[i] * 2.0;
#pragma GCC unroll 4
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = y[i] + 1.0;
}
