// an #include of a header that is nowhere: an error at the #include, as in a C compiler
#include "no_such_header.h"

#pragma adsoac grad
double f(double x) {
  return x;
}
