// The k-means cost: sum over points of the squared distance to the nearest centre.
// reduce(+) over points, reduce(min) over centres inside it, and a plain sequential loop over
// dimensions (a running sum) inside that.  With tie = 1, centres 0 and 1 are the same
// (deterministic) point, so every point whose nearest centre is one of them sees a tie: the
// adjoint goes to the earliest (centre 0, language.md §7) and the finite differences w.r.t.
// those centres are one-sided (the harness accepts a derivative between them).
// e2e: sizes n=0,1,4,9,5,6,3 K=1,2,3,3,2,3,1 D=1,2,3,2,1,3,2 tie=0,0,0,0,1,1,0
// e2e: array p[n*D] range(-1,1)
// e2e: array c[K*D] range(-1,1) fill(tie && i / D < 2 ? 0.3 * (i % D) - 0.2 : r)
#include <math.h>

#pragma adsoac grad
double kmeans(int n, int K, int D, const double *p, const double *c) {
  double cost = 0.0;
#pragma adsoac reduce(+: cost)
  for (int i = 0; i < n; i++) {
    double best = INFINITY;
#pragma adsoac reduce(min: best)
    for (int k = 0; k < K; k++) {
      double dist = 0.0;
      for (int d = 0; d < D; d++) {
        double diff = p[i * D + d] - c[k * D + d];
        dist += diff * diff;
      }
      if (dist < best) best = dist;
    }
    cost += best;
  }
  return cost;
}
