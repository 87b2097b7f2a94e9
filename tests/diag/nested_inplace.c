// An in-place update in a nested loop (A[i*m + j] = f(A[i*m + j])): the reverse sweep would
// need the old elements, and they are saved only for writes that run once per iteration (not
// in a nested loop). Refused (it was silently wrong before: the save covered A[0:n]).
#include <math.h>
#pragma adsoac grad
void nw_outer(int n, int m, const double *x, const double *y, double *A) {
#pragma adsoac map injective(A)
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 0; j < m; j++)
      A[i * m + j] = x[i] * y[j] + sin(A[i * m + j]);
  }
}
