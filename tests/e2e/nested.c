// Reductions nested in maps: a matrix-vector product (reduce(+) inside map), a k-means-like
// cost (reduce(min) over centres inside a map, then a sum), a softmax-like row normaliser
// (reduce(max) and reduce(+) in sequence inside a map).
// e2e: sizes n=0,1,3,5 k=1,2,3,4 d=1,2,2,3
// e2e: func matvec
// e2e: array A[n*d] range(-1,1)
// e2e: array x[d] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func kcost
// e2e: array p[n*d] range(-1,1)
// e2e: array c[k*d] range(-1,1)
// e2e: func softmax_rows
// e2e: array z[n*d] range(-1,1)
// e2e: array out[n*d] range(-1,1)
#include <math.h>

#pragma adsoac grad
void matvec(int n, int d, const double *A, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = 0; j < d; j++)
      s += A[i * d + j] * x[j];
    y[i] = s;
  }
}

#pragma adsoac grad
double kcost(int n, int k, int d, const double *p, const double *c) {
  double cost = 0.0;
#pragma adsoac reduce(+: cost)
  for (int i = 0; i < n; i++) {
    double best = INFINITY;
#pragma adsoac reduce(min: best)
    for (int j = 0; j < k; j++) {
      double dx = p[i * d] - c[j * d];
      double dist = dx * dx;
      if (d > 1) {
        double dy = p[i * d + 1] - c[j * d + 1];
        dist += dy * dy;
      }
      if (dist < best) best = dist;
    }
    cost += best;
  }
  return cost;
}

#pragma adsoac grad
void softmax_rows(int n, int d, const double *z, double *out) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double m = -INFINITY;
#pragma adsoac reduce(max: m)
    for (int j = 0; j < d; j++)
      m = fmax(m, z[i * d + j]);
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = 0; j < d; j++)
      s += exp(z[i * d + j] - m);
    out[i] = log(s) + m;
  }
}
