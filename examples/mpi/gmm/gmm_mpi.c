// examples/mpi/gmm/gmm_mpi.c: the mean negative log-likelihood of a Gaussian mixture, as a
// data-parallel MPI code writes it: each rank holds a shard of the points, every rank holds
// the same parameters, and one MPI_Allreduce combines the partial sums.
//
// n points x[n*D] (this rank's shard) in D dimensions; K components with means mu[K*D],
// log-variances lv[K*D] (diagonal covariances) and unnormalised log-weights a[K]:
//   nll = -(1/N) sum_i log sum_k w_k N(x_i; mu_k, diag(exp(lv_k))),  w = softmax(a),
// N the number of points over all ranks.
//
// Annotations: grad wrt(mu, lv, a) (the points are data); reduce(+: local) over this rank's
// points; reduce(max: m) for the log-sum-exp's shift.  The MPI calls are left as written:
// adsoac differentiates through them (language.md §10).  f_vjp's adjoints are each rank's
// own: seed the objective on one rank (ret_bar 1 there, 0 elsewhere), then sum the ranks'
// adjoints of the replicated parameters for the gradient of the shared value (main.c).
#include <math.h>
#include <mpi.h>

#define LOG_2PI 1.8378770664093453

#pragma adsoac grad wrt(mu, lv, a)
double gmm_nll(int n, int D, int K, const double *x, const double *mu, const double *lv,
               const double *a, MPI_Comm comm) {
  // log sum_k exp(a_k): the weights' normaliser (the same on every rank)
  double amax = -INFINITY;
#pragma adsoac reduce(max: amax)
  for (int k = 0; k < K; k++)
    if (a[k] > amax) amax = a[k];
  double asum = 0.0;
#pragma adsoac reduce(+: asum)
  for (int k = 0; k < K; k++)
    asum += exp(a[k] - amax);
  double lognorm = amax + log(asum);

  double local = 0.0;
#pragma adsoac reduce(+: local)
  for (int i = 0; i < n; i++) {
    double m = -INFINITY;
#pragma adsoac reduce(max: m)
    for (int k = 0; k < K; k++) {
      double q = a[k];
      for (int d = 0; d < D; d++) {
        double r = x[i * D + d] - mu[k * D + d];
        q -= 0.5 * (r * r * exp(-lv[k * D + d]) + lv[k * D + d] + LOG_2PI);
      }
      if (q > m) m = q;
    }
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int k = 0; k < K; k++) {
      double q = a[k];
      for (int d = 0; d < D; d++) {
        double r = x[i * D + d] - mu[k * D + d];
        q -= 0.5 * (r * r * exp(-lv[k * D + d]) + lv[k * D + d] + LOG_2PI);
      }
      s += exp(q - m);
    }
    local += m + log(s) - lognorm;
  }

  int nloc = n, ntot;
  MPI_Allreduce(&nloc, &ntot, 1, MPI_INT, MPI_SUM, comm);
  double total;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return -total / ntot;
}
