// system headers are not read: one adsoac does not know (a library's, omp.h) is accepted and
// left to the C compiler, but a name only it declares is unknown in a marked function
#include <omp.h>
#include <vendor/lib.h>
#include <limits.h>

#pragma adsoac grad
double f(double x) {
  if (INT_MAX > 0)
    x = x * 2.0;
  return x * VENDOR_SCALE;
}
