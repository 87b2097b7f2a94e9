// Loop-invariant elements (r[1], r[k], x[0]) read only under a branch (issue 23): each read's
// adjoint counts only in the iterations that take the branch, whatever accumulates it (a
// hoisted reduction of the reverse loop, a plain update, an atomic, a per-thread copy).
// The branches are taken by some iterations (c alternates), by one (i == 0), by none
// (i < 0) and by all (i >= 0); under if, ?:, nested ifs, in a map, a reduce, a scan, a hist,
// in a nested annotated loop, a sequential inner loop and a helper called under a branch.
// e2e: sizes n=0,1,2,4,7,33
// e2e: seeds 3
// e2e: int k = 2
// e2e: int nb = 3
// e2e: array r[6] range(-1,1)
// e2e: array c[n] range(-1,1) fill(i % 4 == 0 || i % 4 == 3 ? 1.0 : -1.0)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array h[3] range(0.5,1.5)
// e2e: scalar a range(0.5,2)
// e2e: func hist_min_nan
// e2e: array x[n + 2] range(-1,1) fill(i == 1 ? 0.02 : r)
// e2e: array y[2] range(-1,1)
#include <math.h>

// the t4: r_bar[1] got the adjoint of every iteration
#pragma adsoac grad
void t4(int n, double a, const double *r, const double *c, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    if (c[i] > 0.0) y[i] = a * r[1];
    else y[i] = 2.0;
  }
}

// ?: taken by one iteration, if taken by none and by all, at a parameter index
#pragma adsoac grad
void once(int n, int k, const double *r, const double *c, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = y[i] + ((i == 0) ? r[0] : 0.0);
    if (i < 0) y[i] = y[i] * r[3];
    if (i >= 0) y[i] = y[i] + r[4] * c[i];
    if (c[i] > 0) y[i] = 3.0 * r[k] + y[i];
  }
}

// nested ifs and ?: inside a branch
#pragma adsoac grad
void nested_ifs(int n, int k, const double *r, const double *c, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double t = 0.0;
    if (c[i] > 0.0) {
      if (x[i] > 0.0) t = r[k] * x[i];
      else t = (i % 2 == 0) ? r[0] : r[1] * r[1];
    } else if (x[i] > 0.5) {
      t = sin(r[2]);
    }
    y[i] = (x[i] > 0) ? x[i] * r[5] + t : x[i] + r[0] * t;
  }
}

// reduce(+) and reduce(*): the hoisted sum of r[0]'s adjoint
#pragma adsoac grad
double red(int n, const double *r, const double *c, const double *x) {
  double s = 0.0, p = 1.0;
#pragma adsoac reduce(+: s) reduce(*: p)
  for (int i = 0; i < n; i++) {
    if (c[i] > 0.0) s += r[0] * x[i];
    if (c[i] < 0.0) p *= (1.0 + r[1] * x[i]);
  }
  return s + p;
}

// scan(+) and hist(+)
#pragma adsoac grad
void scan_hist(int n, int nb, const double *r, const double *x, double *y, double *h) {
  double acc = 0.0;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    if (x[i] > 0) acc += x[i] * r[0];
    y[i] = acc;
  }
#pragma adsoac hist(+: h[0:nb])
  for (int i = 0; i < n; i++)
    if (x[i] > 0) h[i % 3] += x[i] * r[1];
}

// hist(min) whose update reads invariant elements under ?: (a NaN adjoint where it is 0)
#pragma adsoac grad
void hist_min_nan(int n, const double *x, double *y) {
#pragma adsoac hist(min: y[0:2])
  for (int i = 0; i < n; i++)
    y[i % 2] = fmin(y[i % 2], x[1] >= 0.01 ? fmin(x[n > 5 ? 5 : 0], x[i]) : x[i] - x[i]);
}

// hist(*) with a local under a branch that reaches no output, and one that does
#pragma adsoac grad
void hist_mul(int n, int nb, const double *r, const double *c, const double *x, double *h) {
#pragma adsoac hist(*: h[0:nb])
  for (int i = 0; i < n; i++) {
    double t3 = 0.0, t4 = 1.0;
    if (c[i] > 0.0) t3 = sin(r[1]);
    if (c[i] < 0.0) t4 = 1.0 + 0.5 * r[2] * x[i];
    h[i % 3] *= t4;
  }
}

static double helper(double u, double v) { return u > 0.0 ? u * v : v * v; }

// a nested annotated reduction, a sequential inner loop and a helper, each under a branch
#pragma adsoac grad
void inner(int n, int k, const double *r, const double *c, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    if (c[i] > 0.0) {
#pragma adsoac reduce(+: s)
      for (int j = 0; j < 3; j++) s += r[j] * x[i];
    }
    double q = 0.0;
    for (int j = 0; j < 3; j++)
      if (x[i] > 0.0) q += r[k] * r[j + 3];
    double u = 0.0;
    if (c[i] < 0.0) u = helper(x[i], r[4]);
    y[i] = s + q + u;
  }
}

// an element updated step by step, the first write under a branch: the later reads see the
// branch's value or the element as the iteration found it
#pragma adsoac grad
void steps(int n, const double *r, const double *c, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    if (c[i] > 0.0) y[i] = y[i] * x[i];
    if (n > 3) y[i] = y[i] * r[0];
    else if (x[i] > 0.0) y[i] = r[1] - y[i];
    y[i] += r[2] * y[i];
  }
}

// the element written in one branch and read (as the iteration found it) in the other
#pragma adsoac grad
void other_side(int n, const double *r, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.3) y[i] = 0.25 * x[i];
    else y[i] = y[i] + r[4];
    if (x[i] < 0.0) y[i] = y[i] * y[i];
  }
}

// the other shapes: an array read at the loop index and, under a branch, at an
// invariant index (x[5], x[0], x[1]) in a map, a scan and a hist
#pragma adsoac grad
void same_array(int n, int nb, const double *x, double *y, double *h) {
  int i5 = n > 5 ? 5 : 0, i1 = n > 1 ? 1 : 0;
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = (x[i] > 0) ? x[i] * x[i5] : x[i] + x[0];
  double acc = 0.0;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    if (x[i] > 0) acc += x[i] * x[0];
    y[i] += acc;
  }
#pragma adsoac hist(+: h[0:nb])
  for (int i = 0; i < n; i++)
    if (x[i] > 0) h[i % 3] += x[i] * x[i1];
}
