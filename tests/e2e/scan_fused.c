// Scans on the C target run with the loops around them (emit_par.c scan groups): the loop
// that computes the terms and the one that reads the prefixes in the scan's passes. Cases
// where they may not: the terms' loop fused with a map that writes an array (it cannot run
// twice), an in-place scan (the prefixes' loop writes what the terms' loop reads), two scans
// of one loop, a scan in a time loop, a max-scan whose prefixes f_vjp reads again, a scan
// from a lower bound, a scan whose loops give each iteration its own copy of a malloc'd
// scratch array (allocated per iteration in both passes), and sizes below the thread count
// (the driver runs 4 threads, the translation is compiled with one iteration per chunk at
// least: every chunk count).
// e2e: sizes n=0,1,2,3,5,17,64
// e2e: func side
// e2e: array x[n] range(-1,1)
// e2e: array z[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func inplace
// e2e: array x[n] range(-1,1)
// e2e: func two
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func steps
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func runmax
// e2e: array x[n] range(-2,2)
// e2e: array y[n] range(-1,1)
// e2e: func from
// e2e: int lo = n > 2 ? 2 : 0
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func heapscan
// e2e: int m = 3
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>
#include <stdlib.h>

// the terms' loop joins the map before it (same iterations, z read where written)
#pragma adsoac grad
double side(int n, const double *x, double *z, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) z[i] = x[i] * x[i] + 0.5;
  double s = 0.0;
#pragma adsoac scan(+: s)
  for (int i = 0; i < n; i++) {
    s += sin(z[i]);
    y[i] = s * z[i];
  }
  return s;
}

// x becomes its own inclusive prefix sums
#pragma adsoac grad
void inplace(int n, double *x) {
  double s = 0.0;
#pragma adsoac scan(+: s)
  for (int i = 0; i < n; i++) {
    s += x[i];
    x[i] = s * s;
  }
}

#pragma adsoac grad
double two(int n, const double *x, double *y) {
  double a = 0.0, b = 1.0;
#pragma adsoac scan(+: a) scan(*: b)
  for (int i = 0; i < n; i++) {
    a += x[i];
    b *= 1.0 + 0.1 * x[i];
    y[i] = a * b;
  }
  return a + b;
}

// a scan in each of three steps of a time loop, the prefixes feeding the next step
#pragma adsoac grad
void steps(int n, double *x, double *y) {
  for (int t = 0; t < 3; t++) {
    double s = 0.0;
#pragma adsoac scan(+: s)
    for (int i = 0; i < n; i++) {
      y[i] = s;
      s += 0.5 * x[i];
    }
#pragma adsoac map
    for (int i = 0; i < n; i++) x[i] = cos(y[i]) + x[i];
  }
}

#pragma adsoac grad
double runmax(int n, const double *x, double *y) {
  double m = -INFINITY;
#pragma adsoac scan(max: m)
  for (int i = 0; i < n; i++) {
    m = fmax(m, x[i] * x[i]);
    y[i] = m * x[i];
  }
  return n > 0 ? m : 0.0;
}

#pragma adsoac grad
double from(int n, int lo, const double *x, double *y) {
  double s = 1.0;
#pragma adsoac scan(+: s)
  for (int i = lo; i < n; i++) {
    s += x[i] * x[i];
    y[i] = log(s);
  }
  return s;
}

// w: each iteration's own copy (written before it is read), in the terms' loop and in the
// loop after the scan
#pragma adsoac grad
double heapscan(int n, int m, const double *x, double *y) {
  double s = 0.0;
  double *w = malloc((size_t)m * sizeof *w);
#pragma adsoac scan(+: s)
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) w[j] = x[i] * (j + 1);
    double t = 0.0;
    for (int j = 0; j < m; j++) t += w[j] * w[j];
    s += sqrt(1.0 + t);
    y[i] = s * x[i] + w[m - 1];
  }
  free(w);
  return s;
}
