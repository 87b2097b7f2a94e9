// A local array that a sequential loop of a parallel loop's body fills, then reads: every
// rule that executes the body a second time (the contributions of a scan, the zero counts of
// hist(*) and reduce(*), the winners of hist(min/max) and reduce(max), the general rule of a
// declared operator, the tangent passes of f_jvp, the reverse sweep of a time loop) must fill
// it again.  0.1.0 dropped those writes as effects of the body: the scan's running value was
// 0 (a wrong f), hist(*)/hist(max) got zero or wrong adjoints, silently.  (scan(+) and a
// declared operator's reduce with such a body: e2e legacy_scan_local.)
// e2e: sizes n=1,2,7
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array z[1] range(-1,1)
// e2e: array h[5] range(-1,1)
// e2e: int steps = 3
#include <math.h>

#pragma adsoac grad
void scan_mul(int n, const double *x, double *y) {
  double p = 1.0;
#pragma adsoac scan(*: p)
  for (int i = 0; i < n; i++) {
    double v[3];
    for (int c = 0; c < 3; c++) v[c] = x[i] + 0.25 * c;
    p *= v[2] * v[0];
    y[i] = p;
  }
}

#pragma adsoac grad
void scan_max(int n, const double *x, double *y) {
  double m = -1e30;
#pragma adsoac scan(max: m)
  for (int i = 0; i < n; i++) {
    double v[2];
    for (int c = 0; c < 2; c++) v[c] = x[i] * x[i] - c;
    m = fmax(m, v[1]);
    y[i] = m;
  }
}

#pragma adsoac grad
double reduce_mul_max(int n, const double *x) {
  double p = 1.0, m = -1e30;
#pragma adsoac reduce(*: p) reduce(max: m)
  for (int i = 0; i < n; i++) {
    double v[2];
    for (int c = 0; c < 2; c++) v[c] = x[i] - 0.5 * c;
    p *= v[1];
    m = fmax(m, v[0] * v[1]);
  }
  return p + m;
}

#pragma adsoac grad
void hist_mul(int n, const double *x, double *h) {
#pragma adsoac hist(*: h[0:5])
  for (int i = 0; i < n; i++) {
    double v[2];
    for (int j = 0; j < 2; j++) v[j] = x[i] + j;
    h[i % 5] *= v[1];
  }
}

#pragma adsoac grad
void hist_max(int n, const double *x, double *h) {
#pragma adsoac hist(max: h[0:5])
  for (int i = 0; i < n; i++) {
    double v[2];
    for (int j = 0; j < 2; j++) v[j] = x[i] + j;
    h[i % 5] = fmax(h[i % 5], v[1]);
  }
}

#pragma adsoac grad
void hist_min_add(int n, const double *x, double *h, double *y) {
#pragma adsoac hist(min: h[0:5])
  for (int i = 0; i < n; i++) {
    double v[3];
    for (int j = 0; j < 3; j++) v[j] = x[i] * (j - 1);
    int b = (i * 3) % 5;
    h[b] = fmin(h[b], v[0] + v[2] * x[i]);
    y[i] = v[2];
  }
}

// each time step: a map whose body fills a local array from the state, then the state
#pragma adsoac grad
void time_local(int n, int steps, const double *x, double *y) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) {
      double v[2];
      for (int c = 0; c < 2; c++) v[c] = y[i] * x[i] + c;
      y[i] = sin(v[0]) + 0.5 * v[1];
    }
  }
}

// a nested parallel loop's body with a local array, inside a reduce(*)'s body
#pragma adsoac grad
double nested_mul(int n, const double *x, const double *y) {
  double p = 1.0;
#pragma adsoac reduce(*: p)
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int k = 0; k < 3; k++) {
      double w[2];
      for (int c = 0; c < 2; c++) w[c] = x[i] * (k + c);
      s += w[1] * y[i];
    }
    p *= s;
  }
  return p;
}
