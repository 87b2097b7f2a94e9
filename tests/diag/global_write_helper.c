// language.md 6: an integer file-scope variable that the marked function assigns may not be
// assigned in a function it calls (inlined): refused, naming it
static int calls;
static void count(void) { calls++; }
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  calls = 0;
  count();
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = x[i] * calls;
}
