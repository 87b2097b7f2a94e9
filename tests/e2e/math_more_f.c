// Single-precision version of math_more.c (the f-suffixed functions), same inputs.
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1) fill(fabs(r) < 1e-3 ? 0.5 : r)
// e2e: array u[n] range(0.5,2)
// e2e: array w[n] range(-1,1) fill(i % 2 == 0 ? 0.0 : r)
// e2e: array y[14*n] range(-1,1)

#include <math.h>

#pragma adsoac grad
void mathmore_f(int n, const float *x, const float *u, const float *w, float *y) {
#pragma adsoac map
  for (int j = 0; j < 14 * n; j++) {
    int i = j / 14, k = j % 14;
    float a = x[i], b = u[i], z = w[i], v;
    if (k == 0) {
      v = lgammaf(b);
    } else if (k == 1) {
      v = lgammaf(0.4f * a - 1.5f); // in (-1.9, -1.1): log|Gamma| of a negative
    } else if (k == 2) {
      v = tgammaf(b + 0.3f * a);
    } else if (k == 3) {
      v = tgammaf(0.4f * a - 0.5f); // in (-0.9, -0.1): negative
    } else if (k == 4) {
      v = cbrtf(3.0f * a + copysignf(0.2f, a)); // both signs, |argument| > 0.2
    } else if (k == 5) {
      v = hypotf(a, b);
    } else if (k == 6) {
      v = hypotf(z, 0.5f * z); // (0, 0) at even i
    } else if (k == 7) {
      v = exp2f(a) + log2f(b);
    } else if (k == 8) {
      v = log10f(b);
    } else if (k == 9) {
      v = fmaf(a, b, 0.5f * a * b);
    } else if (k == 10) {
      v = copysignf(a, b - 1.0f); // b - 1 of both signs
    } else if (k == 11) {
      v = copysignf(z, a); // at z = 0: the kink of |z|
    } else if (k == 12) {
      v = erfcf(a);
    } else {
      v = tgammaf(b) * lgammaf(b + 1.0f) + hypotf(a, z);
    }
    y[j] = v;
  }
}

#pragma adsoac grad
float mathmore_f_sum(int n, const float *x, const float *u, const float *w) {
  float s = 0.0f;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    float a = x[i], b = u[i], z = w[i];
    s += lgammaf(b) + lgammaf(0.4f * a - 2.5f) + tgammaf(0.4f * a - 0.5f) + cbrtf(a - copysignf(0.3f, -a));
    s += hypotf(z, 0.25f * z) + hypotf(a, b) + exp2f(a) + log2f(b) + log10f(b + 1.0f);
    s += fmaf(a, b, z) + copysignf(b, a) + copysignf(z, b) + erfcf(a);
  }
  return s;
}
