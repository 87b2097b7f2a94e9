// language.md 6: a marked function that writes a floating-point file-scope variable is
// refused, naming it (integer ones may be assigned: tests/programs/global_state.c)
static int calls;
static double last;
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  calls = calls + 1;
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = x[i] * calls;
  last = y[0];
}
