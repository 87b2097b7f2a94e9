// A map nested in a map writing a matrix row by row: A[i*m + j] with j over [0, m) is proved
// independent for the outer loop too. An outer product scaled by a row reduction; the written
// elements are not read, so nothing needs saving; A's adjoint is read and zeroed per element.
// e2e: sizes n=0,1,3,4 m=1,2,5,3
// e2e: array x[n] range(-1,1)
// e2e: array y[m] range(-1,1)
// e2e: array A[n*m] range(-1,1)
// e2e: written A
#include <math.h>

#pragma adsoac grad
void nested_write(int n, int m, const double *x, const double *y, double *A) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = 0; j < m; j++)
      s += y[j] * y[j];
#pragma adsoac map
    for (int j = 0; j < m; j++)
      A[i * m + j] = x[i] * sin(y[j]) / (1.0 + s);
  }
}
