// A macro whose expansion is no expression, and breaks the parse around it: `(`
// (found by the fuzzer: the lookup of the expression walked down null nodes, SEGV)
#define OPEN (
#pragma adsoac grad
double f(double a) {
  double s = OPEN + a;
  return s;
}
