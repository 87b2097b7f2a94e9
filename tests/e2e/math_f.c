// Single-precision version of math.c (the f-suffixed functions).
// Inputs as in math.c: a in (-1,1) (never 0 or a tie for fabs/fmin/fmax), b in (0.5,2).
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1) fill(fabs(r) < 1e-3 ? 0.5 : r)
// e2e: array u[n] range(0.5,2)
// e2e: array y[21*n] range(-1,1)

#include <math.h>

#pragma adsoac grad
void mathfns_f(int n, const float *x, const float *u, float *y) {
#pragma adsoac map
  for (int j = 0; j < 21 * n; j++) {
    int i = j / 21, k = j % 21;
    float a = x[i], b = u[i], v;
    if (k == 0) {
      v = sqrtf(b);
    } else if (k == 1) {
      v = expf(a);
    } else if (k == 2) {
      v = logf(a * a + 1.0f);
    } else if (k == 3) {
      v = log1pf(b);
    } else if (k == 4) {
      v = expm1f(a);
    } else if (k == 5) {
      v = sinf(a) * cosf(b);
    } else if (k == 6) {
      v = tanf(0.5f * a);
    } else if (k == 7) {
      v = asinf(0.5f * a);
    } else if (k == 8) {
      v = acosf(0.5f * a);
    } else if (k == 9) {
      v = atanf(a);
    } else if (k == 10) {
      v = atan2f(a, b);
    } else if (k == 11) {
      v = sinhf(a);
    } else if (k == 12) {
      v = coshf(a);
    } else if (k == 13) {
      v = tanhf(a);
    } else if (k == 14) {
      v = powf(b, a);
    } else if (k == 15) {
      v = fabsf(a);
    } else if (k == 16) {
      v = fminf(a, b);
    } else if (k == 17) {
      v = fmaxf(a, 0.25f);
    } else if (k == 18) {
      v = erff(a);
    } else if (k == 19) {
      v = floorf(3.0f * a) + a;
    } else {
      v = powf(a * a + 0.5f, 1.5f) + sqrtf(expf(a) + b);
    }
    y[j] = v;
  }
}
