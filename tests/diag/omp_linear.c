// language.md 11: linear(j: 2) is not read yet: refused, naming the clause
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  int j = 0;
#pragma omp parallel for linear(j: 2)
  for (int i = 0; i < n; i++) {
    y[i] = x[j];
    j += 2;
  }
}
