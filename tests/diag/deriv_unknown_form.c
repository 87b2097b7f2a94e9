// Neither the function nor its vjp is declared in a form adsoac can read the parameters from.
double lib_vjp(double x, double y, double ret_bar);
#pragma adsoac derivative(lib) vjp(lib_vjp)
#pragma adsoac grad
double f(double x) { return lib(x, x); }
