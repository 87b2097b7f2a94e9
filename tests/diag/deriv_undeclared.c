// The vjp a derivative pragma names is declared nowhere adsoac can see.
double lib(double x);
#pragma adsoac derivative(lib) vjp(lib_vjp)
#pragma adsoac grad
double f(double x) { return lib(x); }
