// Scans whose update has no active operand (issue 16: they were internal errors): a scan
// variable read but never updated (its prefixes are its initial value), updated by a constant
// (acc = 1.5 + acc, acc += 1.5, acc *= 1.5, a max against a constant), from a constant or an
// active initial value, read before (exclusive) or after (inclusive) the update; the
// contributions get no adjoint, the initial value gets every prefix's.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar c range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
double sread(int n, const double *x, double *y) {
  double acc = 1.0;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++)
    y[i] = acc * x[i];
  return acc;
}

#pragma adsoac grad
double sread_c(int n, double c, const double *x, double *y) {
  double acc = c;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++)
    y[i] = acc * x[i];
  return acc;
}

#pragma adsoac grad
double sconst(int n, const double *x, double *y) {
  double acc = 0.0;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    acc = 1.5 + acc;
    y[i] = acc * x[i];
  }
  return acc;
}

#pragma adsoac grad
double sconst_c(int n, double c, const double *x, double *y) {
  double acc = c;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    y[i] = acc * x[i];
    acc += 1.5;
  }
  return acc * acc;
}

#pragma adsoac grad
double smul(int n, double c, const double *x, double *y) {
  double acc = c;
#pragma adsoac scan(*: acc)
  for (int i = 0; i < n; i++) {
    acc *= 1.5;
    y[i] = acc * x[i];
  }
  return acc;
}

#pragma adsoac grad
double smul0(int n, const double *x, double *y) {
  double acc = 1.0;
#pragma adsoac scan(*: acc)
  for (int i = 0; i < n; i++) {
    acc *= 0.5;
    y[i] = acc * sin(x[i]);
  }
  return acc;
}

#pragma adsoac grad
double smax(int n, double c, const double *x, double *y) {
  double acc = c;
#pragma adsoac scan(max: acc)
  for (int i = 0; i < n; i++) {
    if (0.25 > acc) acc = 0.25;
    y[i] = acc * x[i];
  }
  return acc;
}

#pragma adsoac grad
float sconst_f(int n, const float *x) {
  float acc = 0.0f, s = 0.0f;
#pragma adsoac scan(+: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc += 0.5f;
    s += acc * x[i] * x[i];
  }
  return s;
}
