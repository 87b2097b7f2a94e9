// An in-place update in a sequential loop nested in a parallel loop (A[i*m + j] =
// f(A[i*m + j]) for j in a plain for): the reverse sweep would need the old elements, and
// they are saved only for writes that run once per iteration of the parallel loops around
// them (not in a sequential loop, which may write an element several times). Refused (it was
// silently wrong before: the save covered A[0:n]).
#include <math.h>
#pragma adsoac grad
void nw_outer(int n, int m, const double *x, const double *y, double *A) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      A[i * m + j] = x[i] * y[j] + sin(A[i * m + j]);
  }
}
