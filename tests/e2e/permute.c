// An indirect write the user asserts injective (issue 4): y[perm[i]] with perm a permutation,
// declared with injective(y) on the pragma; the adjoint of y is then read and cleared at
// perm[i] without atomics.  perm[i] = 3*i mod n is a permutation for n not divisible by 3.
// e2e: sizes n=0,1,2,4,5,7
// e2e: array x[n] range(-1,1)
// e2e: array perm[n] range(0,1) fill((3 * i) % (n > 0 ? n : 1))
// e2e: array y[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
void permute(int n, const double *x, const int *perm, double *y) {
#pragma adsoac map injective(y)
  for (int i = 0; i < n; i++)
    y[perm[i]] = x[i] * exp(x[i]);
}
