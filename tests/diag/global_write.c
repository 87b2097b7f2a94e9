// language.md 6: a marked function that writes file-scope state is refused, naming it
static int calls;
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  calls = calls + 1;
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = x[i] * calls;
}
