// Loop distribution and fusion: one loop writes y and computes three reductions with
// different operators.  `--emit=ir --no-fuse` (distribute_split.ir) shows the four parts
// the derivative rules see; `--emit=ir` (distribute.ir) shows them fused again, in the
// primal and in both derivatives: one loop each, plus a one-element loop per extremum.
// The accumulation chosen for each kind of read shows in parts_vjp: x[i] (plain
// accumulation at the loop index), x[0] (loop-invariant: a sum added once after the loop),
// x[idx[i]] (data-dependent: an atomic accumulation), a (a free scalar: a sum).
#include <math.h>

#pragma adsoac grad
double parts(int n, double a, const double *x, const int *idx, double *y) {
  double s = 0.0, hi = -INFINITY, p = 1.0;
#pragma adsoac reduce(+: s) reduce(max: hi) reduce(*: p)
  for (int i = 0; i < n; i++) {
    double v = a * x[i] + x[0];
    y[i] = v * x[idx[i]];
    s += v * v;
    if (v > hi) hi = v;
    p *= v;
  }
  return s + hi + p;
}
