// language.md 6: a file-scope pointer (the array it points to is not known where the function
// starts) is refused, naming it
static double *buffer;
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = x[i] * buffer[i];
}
