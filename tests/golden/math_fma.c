// fma keeps its three operands (one rounding, as C computes it); lgamma's derivative calls
// the runtime's digamma; copysign's second argument gets no adjoint.
#include <math.h>

#pragma adsoac grad
void f(int n, const float *x, const float *u, float *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = fmaf(x[i], u[i], lgammaf(x[i])) + copysignf(x[i], u[i]);
}
