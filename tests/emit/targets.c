// The target compiler's macros select code per target (language.md §6): _OPENMP on the C
// target (its code is OpenMP), __CUDACC__ on the CUDA target (nvcc's); the generated code of
// each target shows its branch (2 x on C, 3 x on CUDA, never 4 x).
#include <limits.h>
#include <stdint.h>

#pragma adsoac grad
void targets(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#if defined(_OPENMP) && !defined(__CUDACC__)
    y[i] = 2.0 * x[i];
#elif defined(__CUDACC__) && defined(__NVCC__) && !defined(_OPENMP)
    y[i] = 3.0 * x[i];
#else
    y[i] = 4.0 * x[i];
#endif
#if __STDC_VERSION__ >= 201112L && INT_MAX == 2147483647 && UINT32_MAX == 4294967295u
    y[i] += 1.0;
#endif
  }
}
