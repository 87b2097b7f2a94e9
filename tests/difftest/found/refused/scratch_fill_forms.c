// REFUSED (adsoac exits 1), found by tests/difftest/difftest.py (legacy space), reduced by hand:
// a malloc'd scratch array that every iteration fills before reading it (language.md §6:
// privatized), filled by for (c = 0; c <= d - 1; ++c) (also: while and do loops); c < d,
// counting down and != are accepted.  A scratch of 3 elements (malloc(3 * sizeof(double)))
// filled counting down (for (int c = 3 - 1; c >= 0; c--)) is refused the same way, where
// malloc(d * ...) filled counting down from d - 1 is accepted (seed 11, program l11_56).
// adsoac says:
//   error: iterations of the parallel loop may depend on each other through 'sc', an
//   array the function allocated: they write elements that are not their own, and it cannot be
//   given to each iteration as its own copy
//   = hint: if every iteration writes all of 'sc' before it reads it, write it in a loop from 0
//   to its size first; else give each iteration its own part of the array (sc + i * size), or
//   split the loop
// e2e: sizes n=0,1,5 d=1,2,3
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <stdlib.h>
#pragma adsoac grad
void scratch_fill_forms(int n, int d, const double *x, double *y) {
  double *sc = (double *)malloc((size_t)d * sizeof(double));
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    for (int c = 0; c <= d - 1; ++c) sc[c] = x[i] * (c + 1);
    y[i] = sc[0] * sc[d - 1];
  }
  free(sc);
}
