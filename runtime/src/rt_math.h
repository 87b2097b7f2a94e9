// runtime/src/rt_math.h: the math functions that derivatives call and C lacks, for both
// targets (embedded after rt_common.h into the generated files that call them).
#ifndef ADSOAC_HD
#ifdef __CUDACC__
#define ADSOAC_HD __host__ __device__
#else
#define ADSOAC_HD
#endif
#endif

// digamma(x) = d/dx log|Gamma(x)|: the derivative of lgamma, and tgamma's over tgamma.
//  - x < 0: the reflection psi(x) = psi(1 - x) - pi cot(pi x), with cot(pi x) taken of x's
//    distance f to the nearest integer (exact), not of pi*x (which loses |x| ulps), and as
//    tan(pi (1/2 - |f|)) where |f| > 1/4 (exactly 0 at f = 1/2);
//  - near the positive root x0 = 1.4616...: the Taylor series in x - x0, whose coefficients
//    are (-1)^(n+1) zeta(n+1, x0) (the recurrence below would cancel to a few digits there);
//  - elsewhere the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10 (6 in float), then the
//    asymptotic series psi(x) = log x - 1/(2x) - sum_k B_2k / (2k x^2k).
// Relative error below 1e-14 (double) and 1e-6 (float), checked against mpmath at some 10000
// points (tests/unit/test_runtime_math.c keeps 25 of them), except near the roots that psi
// has between the negative integers, where the reflection's two terms cancel and the error
// is absolute (about 1e-16 times the size of the terms).  At the poles: -inf at +0, +inf at
// -0 (the limits from that side), NaN at the negative integers.
static inline __attribute__((unused)) ADSOAC_HD double adsoac_digamma(double x) {
  double r = 0;
  if (x < 0) {
    double f = x - round(x), a = fabs(f); // exact, in [-0.5, 0.5]: cot(pi x) = cot(pi f)
    if (f == 0) return NAN;
    double cot = a > 0.25 ? tan(3.141592653589793 * (0.5 - a)) : 1 / tan(3.141592653589793 * a);
    r = f < 0 ? 3.141592653589793 * cot : -3.141592653589793 * cot;
    x = 1 - x;
  }
  double d = (x - 1.4616321449683622) - 9.549995429965697e-17; // x0 in two parts (x - x0_hi is exact near x0)
  if (d > -0.1 && d < 0.1) // coefficients 1 to 15
    return r + d * (0.9676722454476212 + d * (-0.4427631689835921 + d * (0.258499760955651 +
           d * (-0.16394270544240652 + d * (0.10782405069126237 + d * (-0.07219956125645471 +
           d * (0.04880428816414311 + d * (-0.03316112647484736 + d * (0.022597648232218104 +
           d * (-0.01542476590494896 + d * (0.010538791616612175 + d * (-0.007204534386356869 +
           d * (0.004926781395729853 + d * (-0.003369801655439328 +
           d * 0.002305126326734928))))))))))))));
  for (; x < 10; x += 1) r -= 1 / x;
  double t = 1 / (x * x);
  return r + log(x) - 0.5 / x -
         t * (1.0 / 12 - t * (1.0 / 120 - t * (1.0 / 252 - t * (1.0 / 240 - t * (1.0 / 132 -
              t * (691.0 / 32760 - t * (1.0 / 12)))))));
}

static inline __attribute__((unused)) ADSOAC_HD float adsoac_digammaf(float x) {
  float r = 0;
  if (x < 0) {
    float f = x - roundf(x), a = fabsf(f);
    if (f == 0) return NAN;
    float cot = a > 0.25f ? tanf(3.14159265f * (0.5f - a)) : 1 / tanf(3.14159265f * a);
    r = f < 0 ? 3.14159265f * cot : -3.14159265f * cot;
    x = 1 - x;
  }
  float d = (x - 1.46163213f) - 1.24381499e-08f;
  if (d > -0.2f && d < 0.2f) // coefficients 1 to 11
    return r + d * (0.967672245f + d * (-0.442763169f + d * (0.258499761f + d * (-0.163942705f +
           d * (0.107824051f + d * (-0.0721995613f + d * (0.0488042882f + d * (-0.0331611265f +
           d * (0.0225976482f + d * (-0.0154247659f + d * 0.0105387916f))))))))));
  for (; x < 6; x += 1) r -= 1 / x;
  float t = 1 / (x * x);
  return r + logf(x) - 0.5f / x -
         t * (1.0f / 12 - t * (1.0f / 120 - t * (1.0f / 252 - t * (1.0f / 240))));
}
