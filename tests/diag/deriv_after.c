// The derivative is declared after the function that calls it: the output would call it
// before its declaration.
double lib(double x);
#pragma adsoac derivative(lib) jvp(lib_jvp)
#pragma adsoac grad
double f(double x) { return 2.0 * lib(x); }
double lib_jvp(double x, double x_dot, double *ret_dot) {
  *ret_dot = x_dot;
  return x;
}
