// Time loops whose maps the reverse of an iteration need not run again (ad/rev_skip.c): a
// map is skipped where nothing after it in the body that runs reads or writes what it
// writes and no reverse after it needs those values.  Each function reaches one of the
// rules that keep a map: a later map's reverse needs its values as a factor beside an active
// one (sq), a denominator (divide), a condition (cond), a math argument (math), an index
// (indexed); a host-level read (hostread) or a reduction (reduced) after it reads them.
// passive and linear_inplace skip everything; floats (a float->double cast is linear).
// e2e: sizes n=0,1,2,5,9 steps=0,1,2,6,3
// e2e: array u[n] range(-1,1)
// e2e: array v[n] range(-1,1)
// e2e: array s[n] range(0.5,1.5)
// e2e: readonly s
#include <math.h>

// v's values reach the reverse of u = v * v: the first map runs again
#pragma adsoac grad
void sq(int n, int steps, double *u, double *v) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = 0.5 * u[i] + 0.1;
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = v[i] * v[i];
  }
}

// a denominator
#pragma adsoac grad
void divide(int n, int steps, double *u, double *v) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = 0.25 * u[i] + 2.0;
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = 1.0 / v[i] - 0.3;
  }
}

// a condition (no kink at the drawn points: v is away from 0.05 almost surely)
#pragma adsoac grad
void cond(int n, int steps, double *u, double *v) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = 0.9 * u[i] - 0.05;
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = v[i] > 0.05 ? v[i] : 0.5 * v[i];
  }
}

// a math function's argument
#pragma adsoac grad
void math(int n, int steps, double *u, double *v) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = u[i] - 0.2;
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = sin(v[i]) + 0.5 * v[i];
  }
}

// an index: the map that writes the permutation runs again
// func indexed
// e2e: array p[n] range(0,1)
#pragma adsoac grad
void indexed(int n, int steps, double *u, double *v, int *p) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      p[i] = (i * 2 + t) % n;
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = 0.5 * u[p[i]] + u[i];
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = 0.75 * v[i];
  }
}

// a passive factor: v = u * s needs s (read-only) but not u; u = 0.5 v + 0.25 v[i-1] needs
// nothing: neither map runs again
#pragma adsoac grad
void passive(int n, int steps, double *u, double *v, const double *s) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = u[i] * s[i];
#pragma adsoac map
    for (int i = 1; i < n; i++)
      u[i] = 0.5 * v[i] + 0.25 * v[i - 1] - u[i] / 3.0;
  }
}

// in place: u = u - 0.5 v, then v = v + u (each reading what it overwrites)
#pragma adsoac grad
void linear_inplace(int n, int steps, double *u, double *v) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = u[i] - 0.5 * v[i];
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = v[i] + u[i];
  }
}

// a host-level read of v after the map: it runs again
// func hostread
// e2e: sizes n=1,2,5,9 steps=1,0,2,6
#pragma adsoac grad
void hostread(int n, int steps, double *u, double *v) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = u[i] * u[i];
    double first = v[0];
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = 0.5 * v[i] + 0.1 * first;
  }
}

// a reduction over v after the map (the loop carries its sum)
#pragma adsoac grad
double reduced(int n, int steps, double *u, double *v) {
  double acc = 0.0;
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = u[i] * u[i];
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int i = 0; i < n; i++)
      s += v[i];
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = 0.5 * v[i] - 0.2 * u[i];
    acc += s;
  }
  return acc;
}

// floats: the casts to double and back are linear
// func floats
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#pragma adsoac grad
void floats(int n, int steps, float *x, float *y) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      y[i] = (float)(0.5 * x[i]) + 0.25f;
#pragma adsoac map
    for (int i = 0; i < n; i++)
      x[i] = y[i] * 0.8f - (float)(0.1 * (double)y[i]);
  }
}

// a skipped map with an array of each iteration's own (not an array the reverse could read)
#pragma adsoac grad
void local_tmp(int n, int steps, double *u, double *v) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) {
      double w[2];
      for (int c = 0; c < 2; c++) w[c] = u[i] * (c + 1);
      v[i] = w[0] + w[1] * 0.5;
    }
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = 0.5 * v[i] + 0.125;
  }
}
