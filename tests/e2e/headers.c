// Standard headers as a C compiler has them (language.md §6): the constants of <limits.h>,
// <stdint.h>, <float.h>, <math.h>, <stdbool.h>, <stdlib.h> in a marked function and in #if,
// C's types of integer constants (UINT_MAX + 1u wraps to 0, SIZE_MAX is unsigned long), casts
// of constants folded as C converts ((int8_t)200 is -56), hexadecimal floating constants, and
// the target compiler's macros: _OPENMP on the C target, __CUDACC__ on the CUDA target, never
// both (the reference, compiled without -fopenmp, takes the branch through
// ADSOAC_E2E_REFERENCE); a library's header that adsoac does not read, kept in the output.
// e2e: sizes n=0,1,7,33
// e2e: int k = n + 1
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <vendor/vendor.h>

#ifndef M_PI // (glibc's <math.h> has it only outside strict ISO C, as the reference is compiled)
#define M_PI 3.14159265358979323846
#endif

#if defined(_OPENMP) && defined(__CUDACC__)
#error "the macros of both targets"
#endif
#if defined(_OPENMP) || defined(__CUDACC__) || defined(ADSOAC_E2E_REFERENCE)
#define SCALE 2.0
#else
#define SCALE 0.5 // neither target's compiler
#endif
#if INT_MAX > 32767 && SIZE_MAX > UINT32_MAX && LLONG_MIN < 0 && __STDC_VERSION__ >= 201112L && true
#define WIDE 1.0
#else
#define WIDE 0.0
#endif

// not marked: compiled as written, with the vendor's header
static double headers_vendor(double v) {
  return vendor_twice(v);
}

#pragma adsoac grad
void headers(int n, const double *x, uint32_t k, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    bool small = fabs(x[i]) < 0.5;
    size_t j = (size_t)i;
    int32_t m = INT32_MIN + 1;
    double v = x[i] * M_PI * SCALE + (small ? DBL_EPSILON : FLT_EPSILON) * WIDE;
    if (k < UINT32_MAX && i < INT_MAX && j < SIZE_MAX)
      v += (double)UINT_MAX / 4294967296.0 + (double)SIZE_MAX * 0x1p-64 + (double)m / INT_MAX;
    v += (double)(UINT_MAX + 1u) + (double)(int8_t)200 / 100.0 + (double)(unsigned char)-1;
    v += (double)ULLONG_MAX / 1e19 + (double)LLONG_MIN / 1e19 + 0x1.8p1 * x[i] * x[i];
    y[i] = v * (EXIT_SUCCESS + EXIT_FAILURE) + (float)UINT64_MAX / FLT_MAX + DBL_MAX / DBL_MAX;
  }
}
