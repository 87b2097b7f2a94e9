// language.md 11: OpenMP locks have no reading as an annotation: refused, naming the lock, with
// the atomic update or the reduction clause that replaces them
#include <omp.h>
#pragma adsoac grad
double f(int n, const double *x) {
  double s = 0.0;
  omp_lock_t l;
  omp_init_lock(&l);
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    omp_set_lock(&l);
    s += x[i];
    omp_unset_lock(&l);
  }
  return s;
}
