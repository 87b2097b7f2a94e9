// language.md 6: file-scope arrays (lookup tables) are not read yet: refused, naming it
static const double table[4] = {1.0, 2.0, 3.0, 4.0};
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = table[i % 4] * x[i];
}
