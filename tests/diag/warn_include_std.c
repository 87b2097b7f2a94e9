// the standard headers' macros are defined by their #include, as in a C compiler, and an
// #undef after it stays (the header is guarded: a second #include defines nothing again);
// the warning only shows that the file was translated
#include <limits.h>
#ifndef INT_MAX
#error "no INT_MAX after <limits.h>"
#endif
#undef INT_MAX
#include <limits.h>
#ifdef INT_MAX
#error "<limits.h> defined INT_MAX again"
#endif
#include <math.h>

#pragma adsoac grad
double f(int n, const double *x) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += floor(x[i] * M_PI) + (double)INT_MIN;
  return s;
}
