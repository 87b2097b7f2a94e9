// Loop bounds compared as C compares them (its usual arithmetic conversions, issue 16): a
// floating bound runs to ceil(x) (`<`) or floor(x) + 1 (`<=`), not to the truncated (int)x
// (n = 5: i < n * 0.5 runs 3 iterations), a NaN bound runs none, -INFINITY none; an int index
// against an unsigned bound compares as unsigned (from lo = -1 no iteration), against a long
// bound beyond int's range no iteration (not the bound's low 32 bits); the same in a
// sequential (time) loop, a map writing an array, and loops inside a parallel body.
// e2e: sizes n=0,1,2,5,7,33 lo=-1,0,-1,0,-1,-1
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func fbound
// e2e: scalar a fill(n == 2 ? NAN : n == 7 ? -INFINITY : n == 33 ? 16.0 : n * 0.5 - 0.25)
// e2e: func fbound_le
// e2e: scalar a fill(n == 2 ? NAN : n == 7 ? -INFINITY : n == 33 ? 16.0 : n * 0.5 - 1.0)
// e2e: func lbound
// e2e: int m = n % 2 ? n - 4294967296L : n
// e2e: func ubound
// e2e: int m = n
// e2e: func szbound
// e2e: array x[n + 1] range(-1,1)
// e2e: func steps_half
// e2e: array u[n] range(-1,1)
#include <math.h>
#include <stddef.h>

#pragma adsoac grad
double halfsum(int n, const double *x, double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n * 0.5; i++) {
    s += x[i] * x[i];
    y[i] = sin(x[i]);
  }
  return s;
}

// n = 1: i <= -0.25 runs no iteration ((int)-0.25 + 1 would run one)
#pragma adsoac grad
double half_le(int n, const double *x) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i <= n * 0.5 - 0.75; i++)
    s += x[i] * x[i] * x[i];
  return s;
}

#pragma adsoac grad
float half_f(int n, const float *x) {
  float s = 0.0f;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n * 0.5f; i++)
    s += x[i] * x[i];
  return s;
}

// a passive floating bound: NaN and -INFINITY run no iteration
#pragma adsoac grad wrt(x)
void fbound(int n, double a, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < a; i++)
    y[i] = exp(x[i]) * y[i];
}

#pragma adsoac grad wrt(x)
void fbound_le(int n, double a, const double *x, double *y) {
#pragma adsoac map
  for (long i = 0; i <= a; i++)
    y[i] = x[i] * y[i] + 1.0;
}

// int against unsigned: i = -1 compares as UINT_MAX, so from lo = -1 the loop runs no
// iteration
#pragma adsoac grad
double ubound(int n, int lo, unsigned m, const double *x) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = lo; i < m; i++)
    s += x[i - lo] * x[i - lo];
  return s;
}

// int against size_t, <=: the same
#pragma adsoac grad
double szbound(int n, int lo, const double *x) {
  double s = 0.0;
  size_t m = (size_t)n;
#pragma adsoac reduce(+: s)
  for (int i = lo; i <= m; i++)
    s += sin(x[i - lo]);
  return s;
}

// int against long: m = n - 2^32 for odd n, no iteration (its low 32 bits are n)
#pragma adsoac grad
double lbound(int n, long m, const double *x) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < m; i++)
    s += x[i] * x[i];
  return s;
}

// a time loop with a floating bound (the checkpointed loop recomputes nothing of it)
#pragma adsoac grad
void steps_half(int n, double *u) {
  for (int t = 0; t < n * 0.5; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = sin(u[i]) + 0.5 * u[i];
  }
}

// floating bounds of loops inside a parallel body (computed per iteration, in the kernel on
// CUDA): a nested reduction to ceil(n * 0.5), a sequential loop to floor(i * 0.5f) (<=)
#pragma adsoac grad
void nested_half(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = 0; j < n * 0.5; j++)
      s += x[j] * x[i];
    for (unsigned k = 0; k <= i * 0.5f; k++)
      s += sin(x[k]);
    y[i] = s;
  }
}
