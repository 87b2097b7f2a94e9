// Returns before the end of a marked function (language.md §6): a guard on the size, an
// if/else that returns in both branches, a void function that returns early after writing,
// a return in a nested if; f_vjp must still compute the adjoints and f_jvp the tangents
// (0.1.0 returned from f_vjp before its reverse sweep, and from f_jvp without a value).
// e2e: sizes n=0,1,2,7
// e2e: array x[n]
// e2e: array y[n]
// e2e: scalar a range(-1,1)
#include <math.h>

#pragma adsoac grad
double guard(int n, const double *x) {
  if (n <= 0) return 0.0;
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

#pragma adsoac grad
double both(int n, const double *x, double a) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += sin(x[i]);
  if (s > 0.0) {
    return s * a;
  } else {
    if (n > 3) return a * a;
    return s - a;
  }
}

#pragma adsoac grad
void early_void(int n, const double *x, double *y, double a) {
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = x[i] * a;
  if (n < 2) return;
  y[0] = y[0] * y[1];
  if (a > 0.5) return;
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = y[i] + a * x[i];
}

// a helper inlined in a map: a void one that returns early, a valued one that falls through
// to its last return
static void add_pos(double *y, int i, double v) {
  if (v < 0.0) return;
  y[i] = y[i] + v * v;
}
static double relu(double v) {
  if (v < 0.0) return 0.0;
  double w = v * 1.5;
  return w * v;
}

#pragma adsoac grad
void helpers(int n, const double *x, double *y, double a) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = relu(x[i] - a);
    add_pos(y, i, x[i] + a);
  }
}
