// A derivative pragma stands at file level.
double lib(double x);
double lib_jvp(double x, double x_dot, double *ret_dot);
#pragma adsoac grad
double f(double x) {
#pragma adsoac derivative(lib) jvp(lib_jvp)
  return lib(x);
}
