// --remarks: what each marked loop was shown to do, what was taken on the user's word, and
// how each adjoint is accumulated.
#include <stddef.h>

#pragma adsoac grad
void remark_loops(size_t n, const double *x, const int *perm, const double *w, double *y,
                  double *z, double *acc) {
#pragma adsoac map
  for (size_t i = 0; i < n; i++) {
    y[2 * i] = x[i] * w[0];
    y[2 * i + 1] = x[i] + w[i];
  }
#pragma adsoac map injective(z)
  for (size_t i = 0; i < n; i++) z[perm[i]] = x[perm[i]] * x[perm[i]];
#pragma adsoac map
  for (size_t i = 0; i < n; i++) {
    double t[3];
    for (int k = 0; k < 3; k++) t[k] = x[(i + (size_t)k) % n];
    acc[i] = t[0] * t[1] + t[2];
  }
  for (size_t t = 0; t < 4; t++) {
#pragma adsoac map
    for (size_t i = 0; i < n; i++) acc[i] = acc[i] * w[i] + 1.0;
  }
}
