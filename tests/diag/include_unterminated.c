// a system header name without its closing '>': an error, as in a C compiler
#include <math.h

#pragma adsoac grad
double f(double x) {
  return x;
}
