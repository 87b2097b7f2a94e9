// OpenMP's lastprivate (language.md 11): after the loop the variable holds what the loop's
// last iteration left in it, and the derivatives follow that value (every other iteration's
// value feeds only its own outputs).  OpenMP leaves the variable unspecified after a loop of
// no iteration (GCC's libgomp copies an uninitialised private back), which C defines:
// omp-sizes leaves n = 0 out where the original runs as OpenMP.  A running weight used after the loop, an index kept as
// lastprivate (integer), a loop that counts down (its
// last iteration is the lowest index) and one with a step, a branch that leaves the last
// value, and n = 0 (the variable keeps its value from before the loop).
// e2e: func tail
// e2e: sizes n=0,1,2,5,8
// e2e: omp-sizes n=1,2,5,8
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array out[3] range(-1,1)
// e2e: func down
// e2e: sizes n=0,1,3,6
// e2e: omp-sizes n=1,3,6
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array out[2] range(-1,1)
// e2e: func stepped
// e2e: sizes n=0,1,4,7
// e2e: omp-sizes n=1,4,7
// e2e: array x[n] range(-1,1)
// e2e: array out[2] range(-1,1)
#include <math.h>

#pragma adsoac grad
void tail(int n, double a, const double *x, double *y, double *out) {
  double w = a, t = -a;
  int last = -1;
#pragma omp parallel for lastprivate(w, last) lastprivate(t)
  for (int i = 0; i < n; i++) {
    w = x[i] * x[i] + a;
    if (x[i] > 0.5) w = sin(x[i]) * a;
    t = 2.0 * a * x[i];
    y[i] = w * t;
    last = i;
  }
  out[0] = w * 3.0 + last;
  out[1] = t;
  out[2] = w * t;
}

#pragma adsoac grad
double down(int n, const double *x, double *y, double *out) {
  double r = 1.5;
#pragma omp parallel for lastprivate(r)
  for (int i = n - 1; i >= 0; i--) {
    r = exp(0.5 * x[i]);
    y[i] = r * x[i];
  }
  out[0] = r * r;
  out[1] = r;
  return r;
}

#pragma adsoac grad
void stepped(int n, double a, const double *x, double *out) {
  double s = a;
  int i;
#pragma omp parallel for lastprivate(s, i)
  for (i = 0; i < n; i += 2) s = x[i] * a + 1.0;
  out[0] = s * s;
  out[1] = s + i;
}
