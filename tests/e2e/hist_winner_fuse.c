// An in-place map, then a hist(max) that reads what it wrote (difftest d20261124_25): on the
// C target f_vjp's run of the hist loop records its winners, and the reverse of the map
// (which needs the adjoints the winners' reverse gives y) fuses into that run; the winners'
// reverse must stay after the loop that records them (transform/fuse.c: a loop's winners
// count as written though no statement of its body names them).
// e2e: sizes n=0,1,2,7,33
// e2e: seeds 2
// e2e: array x[n] range(-1,1)
// e2e: array idx[n] range(0,n)
// e2e: array y[n] range(-1,1)
// e2e: array h[5] range(-1,1)
// e2e: scalar a range(-1,1)
#include <math.h>

#pragma adsoac grad
void winfuse(int n, double a, const double *x, const int *idx, double *y, double *h) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = y[i] + a * fabs(x[i]);
#pragma adsoac hist(max: h[0:5])
  for (int i = 0; i < n; i++) {
    int b = idx[i] % 5;
    h[b] = fmax(h[b], y[i] + y[i] / (2.0 + cos(x[i])) * x[i] * x[i]);
  }
}
