// A local array of a parallel loop's body filled or updated in place by sequential loops
// with elements every iteration reads (p[k], p[0]: an index the parallel loop does not
// change).  Such a loop is checkpointed and its iterations swept again in reverse in the
// reverse loop's body; the adjoints of those elements are added as in any sequential loop
// there (per-thread copies of the elements the indices reach, or atomics), not summed into a
// value of the sequential loop's body that the parallel loop's reduction read outside it.
// Under ifs, two levels of sequential loops, a reduction nested in a map, a time loop (found
// by tests/difftest/difftest.py, seed 1: a third of the legacy programs ended in an internal
// error after 'vjp'; with an earlier update of the array and the loop under an if, in a
// crash of the front end).
// e2e: sizes n=0,1,5
// e2e: int k = 3
// e2e: scalar c range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array p[8] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

// filled with p[k] + x[i]
#pragma adsoac grad
double invariant_fill(int n, int k, const double *x, const double *p) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double q[3];
    for (int a = 0; a < 3; a++)
      q[a] = p[k] + x[i];
    s += q[0] * q[2];
  }
  return s;
}

// updated in place, then again under an if by a factor 0.5 * p[0]
#pragma adsoac grad
void invariant_update(int n, const double *x, const double *p, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[2] = {x[i], 0.25};
    v[1] *= x[i];
    if (p[1] >= 0.3) {
      for (int b = 1; b < 2; b++) v[b] = v[b] + 0.5 * p[0] * v[0];
    }
    y[i] = v[1];
  }
}

// filled under ifs in the loop's body, then updated by two levels of loops
#pragma adsoac grad
void invariant_fill_if(int n, int k, double c, const double *x, const double *p, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double q[3];
    for (int a = 0; a < 3; a++) {
      if (x[i] > 0.0)
        q[a] = p[k] * x[i] + c;
      else
        q[a] = p[0] + p[a] * c;
    }
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 2; b++) q[a] = q[a] * p[1] + sin(p[k + b]);
    y[i] = q[0] * q[2] + q[1];
  }
}

// in a reduction nested in a map
#pragma adsoac grad
void invariant_fill_nested(int n, int k, const double *x, const double *p, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = 0; j < n; j++) {
      double q[2];
      for (int a = 0; a < 2; a++) q[a] = p[k] * x[j] + p[a];
      s += q[0] * q[1] * x[i];
    }
    y[i] = s;
  }
}

// in a time loop, with p[t] too
#pragma adsoac grad
double invariant_fill_time(int n, int k, const double *x, const double *p) {
  double s = 0.0;
  for (int t = 0; t < 2; t++) {
#pragma adsoac reduce(+: s)
    for (int i = 0; i < n; i++) {
      double q[3];
      for (int a = 0; a < 3; a++) q[a] = p[k] + x[i] * p[t];
      for (int a = 1; a < 3; a++) q[a] += 0.5 * p[0] * q[a - 1];
      s += q[0] * q[2];
    }
  }
  return s;
}
