// a header that includes /dev/zero: refused at its #include, not read until memory runs out
#include "include_dev_zero.h"

#pragma adsoac grad
double f(double x) {
  return x;
}
