// A parallel loop's body reads an element, a sequential loop nested in it updates that
// element, and the body reads it again: the second read is not the first.  Until
// 2026-11-27 the common-subexpression pass after fusion (transform/fuse.c) did not see the
// writes of nested loops and reused the first read: a wrong f (found by difftest seed 9191,
// l9191_27, shrunk to loop_then_read below).
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1)
// e2e: array p[4] range(-1,1)
// e2e: array y[2*n] range(-1,1)
#include <math.h>
#include <stdlib.h>

// a local array, read, updated by a triangular loop nest, read again
#pragma adsoac grad
void loop_then_read(int n, const double *x, const double *p, double *y) {
  double *sc = (double *)malloc(3 * sizeof(double));
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    for (int c = 0; c < 3; c++) sc[c] = p[2] + 0.1 * c;
    double first = sc[2];
    for (int a = 0; a < 3; a++)
      for (int b = a + 1; b < 3; b++) sc[b] = sc[b] + fabs(sc[b]) * p[a];
    y[2 * i] = first + x[i];
    y[2 * i + 1] = y[2 * i] * fmax(x[i], sc[2]);
  }
  free(sc);
}

// a local array, read, squared by a nested parallel loop, read again
#pragma adsoac grad
void map_then_read(int n, const double *x, const double *p, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4];
    for (int c = 0; c < 4; c++) w[c] = x[i] + p[c];
    double before = w[1];
#pragma adsoac map
    for (int c = 0; c < 4; c++) w[c] = w[c] * w[c];
    y[2 * i] = before * w[1];
    y[2 * i + 1] = w[3] - before;
  }
}
