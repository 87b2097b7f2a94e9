// A function with declared derivatives takes scalars only.
double dot_lib(int n, const double *x, const double *y);
double dot_lib_vjp(int n, const double *x, double *x_bar, const double *y, double *y_bar, double r);
#pragma adsoac derivative(dot_lib) vjp(dot_lib_vjp)
#pragma adsoac grad
double f(int n, const double *x, const double *y) { return dot_lib(n, x, y); }
