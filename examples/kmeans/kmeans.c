// examples/kmeans/kmeans.c: the k-means cost, as legacy C annotated for adsoac.
//
// n points p[n*D] and K centres c[K*D] in D dimensions; the function returns
//   cost = sum_i min_k |p_i - c_k|^2,
// the quantity Lloyd's algorithm decreases.  Its gradient w.r.t. the centres,
// d cost / d c_k = 2 * sum_{i assigned to k} (c_k - p_i), is what a gradient-based (or
// Newton) k-means solver needs; adsoac derives it from this loop nest.
//
// Annotations:
//   - grad wrt(c): the centres are the unknowns, the points are data (inactive).
//   - reduce(+: cost) over the points: each point adds its distance independently.
//   - reduce(min: best) inside it, over the centres: the nearest centre.  Its derivative
//     goes to the winning centre only (on a tie, to the earliest one, language.md 7).
//   - the loop over d (a running sum of squares) stays a plain sequential loop.
// f_vjp (kmeans_vjp) returns the cost and adds ret_bar * d cost / d c into c_bar.
#include <math.h>

#pragma adsoac grad wrt(c)
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
