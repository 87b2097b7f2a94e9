// tests/semantics/ties.c: exact checks of language.md §7 that finite differences cannot make
// (at a tie every candidate's one-sided differences are consistent with any split).
#include <math.h>

#pragma adsoac grad
double maxval(int n, double c, const double *x) {
  double m = c;
#pragma adsoac reduce(max: m)
  for (int i = 0; i < n; i++)
    m = fmax(m, x[i]);
  return m;
}

#pragma adsoac grad
double minval(int n, double c, const double *x) {
  double m = c;
#pragma adsoac reduce(min: m)
  for (int i = 0; i < n; i++)
    if (x[i] < m) m = x[i];
  return m;
}

#pragma adsoac grad
double prodval(int n, double c, const double *x) {
  double p = c;
#pragma adsoac reduce(*: p)
  for (int i = 0; i < n; i++)
    p *= x[i];
  return p;
}

#pragma adsoac grad
double fmaxpair(int n, const double *x, const double *y) {
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += fmax(x[i], y[i]) + fmin(x[i], y[i]) + fabs(x[i]);
  return s;
}

// scans: the running max (either fmax argument order) and min give each prefix's adjoint to
// its winner, the initial value if it attains the extremum, else the earliest element; the
// running product is exact with zeros (weights i + 1 make every expected value exact)
#pragma adsoac grad
double runmax(int n, double c, const double *x) {
  double m = c, s = 0.0;
#pragma adsoac scan(max: m) reduce(+: s)
  for (int i = 0; i < n; i++) {
    m = fmax(x[i], m);
    s += (i + 1) * m;
  }
  return s;
}

#pragma adsoac grad
double runmin(int n, double c, const double *x) {
  double m = c, s = 0.0;
#pragma adsoac scan(min: m) reduce(+: s)
  for (int i = 0; i < n; i++) {
    if (x[i] < m) m = x[i];
    s += (i + 1) * m;
  }
  return s;
}

#pragma adsoac grad
double runprod(int n, double c, const double *x) {
  double p = c, s = 0.0;
#pragma adsoac scan(*: p) reduce(+: s)
  for (int i = 0; i < n; i++) {
    p *= x[i];
    s += (i + 1) * p;
  }
  return s;
}

// histograms: per bin, min/max give the adjoint to the initial contents if they attain the
// extremum, else to the earliest update attaining it; * is exact with zeros per bin (the
// initial contents a factor); out-of-section bins contribute nothing
#pragma adsoac grad
void hmax2(int n, const int *bin, const double *x, double *h) {
#pragma adsoac hist(max: h[0:2])
  for (int i = 0; i < n; i++)
    h[bin[i]] = fmax(h[bin[i]], x[i]);
}

#pragma adsoac grad
void hprod4(int n, const int *bin, const double *x, double *h) {
#pragma adsoac hist(*: h[0:4])
  for (int i = 0; i < n; i++)
    h[bin[i]] *= x[i];
}
