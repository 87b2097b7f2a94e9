// Single-precision version of math.c (the f-suffixed functions).
// Inputs as in math.c: a in (-1,1) (never 0 or a tie for fabs/fmin/fmax), b in (0.5,2).
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1) fill(fabs(r) < 1e-3 ? 0.5 : r)
// e2e: array u[n] range(0.5,2)
// e2e: array y[21*n] range(-1,1)

#include <math.h>

#define NF 21

#pragma adsoac grad
void mathfns_f(int n, const float *x, const float *u, float *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    float a = x[i], b = u[i];
    y[NF * i + 0] = sqrtf(b);
    y[NF * i + 1] = expf(a);
    y[NF * i + 2] = logf(a * a + 1.0f);
    y[NF * i + 3] = log1pf(b);
    y[NF * i + 4] = expm1f(a);
    y[NF * i + 5] = sinf(a) * cosf(b);
    y[NF * i + 6] = tanf(0.5f * a);
    y[NF * i + 7] = asinf(0.5f * a);
    y[NF * i + 8] = acosf(0.5f * a);
    y[NF * i + 9] = atanf(a);
    y[NF * i + 10] = atan2f(a, b);
    y[NF * i + 11] = sinhf(a);
    y[NF * i + 12] = coshf(a);
    y[NF * i + 13] = tanhf(a);
    y[NF * i + 14] = powf(b, a);
    y[NF * i + 15] = fabsf(a);
    y[NF * i + 16] = fminf(a, b);
    y[NF * i + 17] = fmaxf(a, 0.25f);
    y[NF * i + 18] = erff(a);
    y[NF * i + 19] = floorf(3.0f * a) + a;
    y[NF * i + 20] = powf(a * a + 0.5f, 1.5f) + sqrtf(expf(a) + b);
  }
}
