// Two derivative pragmas for one function.
double lib(double x);
double lib_jvp(double x, double x_dot, double *ret_dot);
#pragma adsoac derivative(lib) jvp(lib_jvp)
#pragma adsoac derivative(lib) jvp(lib_jvp)
#pragma adsoac grad
double f(double x) { return lib(x); }
