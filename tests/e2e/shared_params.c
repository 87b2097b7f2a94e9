// Parameters read by every iteration of a parallel loop in nested loops, at indices the loop
// index does not decide (w[k*D + d]): their adjoints are a hist(+) of the reverse loop over
// the interval the indices can reach (a copy per thread on the C target).  Also: an index
// through a narrowing cast (not bounded: atomics), and an array read both that way and at
// the loop's own index (atomic updates next to the per-thread copies' merge).
// e2e: sizes n=0,1,3,6 K=1,2,3,4 D=1,2,3,2
// e2e: func params
// e2e: array w[K*D] range(-1,1)
// e2e: array b[K] range(-1,1)
// e2e: array x[n*D] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func wrapped
// e2e: array w[256] range(-1,1)
// e2e: array x[n*K] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func mixed
// e2e: array w[n+K] range(-1,1)
// e2e: array x[n*K] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
void params(int n, int K, int D, const double *w, const double *b, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int k = 0; k < K; k++) {
      double t = b[k];
      for (int d = 0; d < D; d++)
        t += w[k * D + d] * x[i * D + d];
      s += tanh(t);
    }
    y[i] = s;
  }
}

#pragma adsoac grad
void wrapped(int n, int K, const double *w, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = 0; k < K; k++) s += w[(unsigned char)(k + 254)] * x[i * K + k];
    y[i] = s;
  }
}

#pragma adsoac grad
void mixed(int n, int K, const double *w, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = 0; k < K; k++) s += w[k] * x[i * K + k];
    y[i] = s + w[i + K] * w[i + K];
  }
}
