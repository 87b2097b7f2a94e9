// fuzz seed: every math built-in, double and float
#include <math.h>

#pragma adsoac grad
void mathd(int n, const double *x, const double *z, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i = i + 1) {
    double a = x[i], b = z[i];
    y[i] = sqrt(a) + exp(a) + log(a) + log1p(a) + expm1(a) + sin(a) + cos(a) + tan(a) +
           asin(a) + acos(a) + atan(a) + atan2(a, b) + sinh(a) + cosh(a) + tanh(a) +
           pow(a, b) + fabs(a) + fmin(a, b) + fmax(a, b) + erf(a) + floor(a) + ceil(a) +
           round(a) + trunc(a) + lgamma(a) + tgamma(b) + cbrt(a) + hypot(a, b) + exp2(a) +
           log2(a) + log10(b) + fma(a, b, a) + copysign(a, b) + erfc(a);
  }
}

#pragma adsoac grad
float mathf(int n, const float *x) {
  float s = 0.0f;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += sqrtf(x[i]) * expf(x[i]) - logf(x[i] + 1.0f) + powf(x[i], 2.0f) + fabsf(x[i]) +
         fminf(x[i], 1.0f) + fmaxf(x[i], 0.0f) + tanhf(x[i]) + atan2f(x[i], 1.0f) + lgammaf(x[i]) +
         hypotf(x[i], 2.0f) + fmaf(x[i], x[i], 1.0f) + copysignf(1.0f, x[i]) + cbrtf(x[i]);
  return s;
}
