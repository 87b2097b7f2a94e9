// language.md 11: per-thread partials indexed by omp_get_thread_num() have no reading as an
// annotation: refused, naming the call, with the reduction clause that replaces them
#include <omp.h>
#pragma adsoac grad
double f(int n, const double *x) {
  double part[64] = {0}, s = 0.0;
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp for
    for (int i = 0; i < n; i++) part[t] += x[i];
  }
  for (int t = 0; t < 64; t++) s += part[t];
  return s;
}
