// A sequential loop inside a map that reads and writes its own element on every step: the
// reverse re-runs its iterations without writes, so it is refused with the local-variable form.
#include <math.h>
#pragma adsoac grad
void steps(int n, int d, const double *a, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++)
      y[i] = sin(y[i]) * a[i * d + j] + 0.5;
  }
}
