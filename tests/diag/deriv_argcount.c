// A call with the wrong number of arguments to a function with declared derivatives.
double lib(double x, double y);
double lib_jvp(double x, double x_dot, double y, double y_dot, double *ret_dot);
#pragma adsoac derivative(lib) jvp(lib_jvp)
#pragma adsoac grad
double f(double x) { return lib(x); }
