// language.md 6: file-scope arrays are passive tables: a marked function that writes one
// (here through a pointer into it) is refused, naming it
static double table[4] = {1.0, 2.0, 3.0, 4.0};
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  double *t = table;
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = table[i % 4] * x[i];
  t[0] = y[0];
}
