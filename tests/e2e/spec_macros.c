// Declaration specifiers as portable C spells them through macros: INLINE (static inline),
// RESTRICT (__restrict__), and CUDA's annotations where __CUDACC__ is defined (adsoac's CUDA
// target defines it, as nvcc does); the macros before a function and in its parameters.
// e2e: sizes n=0,1,6
// e2e: array x[n]
// e2e: array y[n]
#include <stddef.h>

#define INLINE static inline
#define RESTRICT __restrict__
#ifdef __CUDACC__
#define DEVICE __host__ __device__
#define FORCE __forceinline__
#else
#define DEVICE
#define FORCE
#endif

INLINE double sq(double x) {
  return x * x;
}

DEVICE FORCE static double cube(double x) {
  return x * sq(x);
}

DEVICE INLINE double mix(double a, double b) {
  return a * b + cube(a - b);
}

#pragma adsoac grad
void spec_macros(size_t n, const double *RESTRICT x, double *RESTRICT y) {
#pragma adsoac map
  for (size_t i = 0; i < n; i++) y[i] = mix(x[i], y[i]) + sq(x[i]);
}
