// do ... while loops whose condition has side effects (while (++r < k), while (r++ < n - 1)),
// as legacy code counts its rounds: the condition runs after every iteration that did not
// break (after a continue too), and its assignments are seen by the next iteration and after
// the loop. Sequential at the function's level, around a reduce, and in a map's body (with a
// loop hint, kept in f).
// e2e: func rounds
// e2e: sizes n=0,1,3,6
// e2e: array x[n] range(-1,1)
// e2e: array out[2] range(-1,1)
// e2e: func until
// e2e: sizes n=1,2,5,8
// e2e: array x[n] range(-1,1)
// e2e: array out[2] range(-1,1)
// e2e: func rows
// e2e: sizes n=0,1,3,4 m=1,2,3,5
// e2e: array A[n*m] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
void rounds(int n, const double *x, double *out) {
  int r = 0;
  double s = out[0];
  do
#pragma adsoac reduce(+: s)
    for (int i = 0; i < n; i++)
      s += x[i] * x[i] * (r + 1);
  while (++r < 3);
  out[0] = s;
  out[1] = r * s;
}

#pragma adsoac grad
void until(int n, const double *x, double *out) {
  int r = 0;
  double s = 0.0, p = 1.0;
  do {
    if (x[r] > 0.6) break;
    if (x[r] < -0.6) continue;
    s += x[r] * p;
    p = p * 0.9 + x[r];
  } while (r++ < n - 2);
  out[0] = s + r;
  out[1] = p;
}

#pragma adsoac grad
void rows(int n, int m, const double *A, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    int j = 0;
    double acc = y[i];
#pragma GCC unroll 2
    do {
      acc = acc * 0.5 + sin(A[i * m + j]);
      if (acc > 1.5) break;
    } while (++j < m);
    y[i] = acc + j;
  }
}
