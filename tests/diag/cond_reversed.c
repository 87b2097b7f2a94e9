#pragma adsoac grad
void f(unsigned n, double *y) {
  for (unsigned i = n - 1; i >= 0; i--)
    y[i] = 1.0;
}
