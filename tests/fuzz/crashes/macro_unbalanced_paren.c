// A macro whose expansion breaks the expression around it (fuzzer: SEGV in find_expr)
#define OPEN (
#pragma adsoac grad
double f(double a) {
  double s = OPEN;
  return s;
}
