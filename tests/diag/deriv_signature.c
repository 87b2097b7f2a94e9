// The declared vjp does not have the signature adsoac calls it with (the seed is missing).
double lib(double x, int k);
double lib_vjp(double x, double *x_bar, int k);
#pragma adsoac derivative(lib) vjp(lib_vjp)
#pragma adsoac grad
double f(double x) { return lib(x, 2); }
