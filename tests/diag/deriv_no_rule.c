// A derivative pragma names neither a vjp nor a jvp.
double lib(double x);
#pragma adsoac derivative(lib)
#pragma adsoac grad
double f(double x) { return lib(x); }
