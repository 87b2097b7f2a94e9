// tests/e2e/lib/ext_lib.c: a "library" for e2e ext_deriv.c: functions whose bodies adsoac
// does not see (the program declares their derivatives), linked with the translation and
// the references.
// On a GPU (tests/gpu/run.sh) it is compiled as CUDA, its functions callable from kernels.
#include <math.h>

#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

HD double softplus_lib(double x, double beta) {
  return log1p(exp(beta * x)) / beta;
}

HD double powi_lib(int k, double x) {
  double r = 1.0;
  for (int i = 0; i < k; i++) r *= x;
  return r;
}

HD double blend_lib(double a, double b, double t) {
  return a * cos(t) + b * sin(t) + a * b;
}

HD float scalef_lib(float x, int s) {
  return x * (float)s + sinf(x);
}
