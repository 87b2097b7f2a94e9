// gmm: the ADBench GMM objective (Gaussian mixture log-likelihood with a Wishart prior)
// with diagonal covariances Q_k = diag(exp(q_k)): the main term of point i and
// component k is
//   v_ik = alpha_k + sum_d q_kd - 0.5 * sum_d (exp(q_kd) * (x_id - mu_kd))^2
// and the objective (constants without parameters omitted: -n D/2 log(2 pi), the
// Wishart normaliser; K, D, m and gamma are fixed)
//   sum_i logsumexp_k(v_ik) - n * logsumexp(alphas)
//   + sum_kd (0.5 * gamma^2 * exp(2 q_kd) - m * q_kd).
// Differentiated, as in ADBench, with respect to alphas, means and qs only:
// wrt(alphas, means, qs) leaves the data x and the Wishart gamma (a double) inactive,
// m is an int. Structure: reduce(+) over the points; inside, the log-sum-exp over the
// components as a reduce(max) and a reduce(+) over k, each main term a plain sequential
// loop over d (running sums) in a static helper, so the max pass and the sum pass each
// evaluate it (no per-point temporary array: language.md §6 allows none in a loop body).
// The log-sum-exp of the alphas and the prior are separate annotated loops.
// The log-sum-exp could also be written with plain sequential loops over k (the running
// maximum carried by `if (v > mx) mx = v;`): adsoac accepts that too; until 2026-11-28 it
// reversed such a carried value by recomputing it from the loop's start (quadratic in K),
// which made its vjp about 1.5x slower than with the two nested reductions (bench/README.md;
// the C target now keeps it on a tape, not measured in this form since).
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed gmm_seq) and through adsoac (gmm, gmm_vjp, gmm_jvp).
#include <math.h>

// v_ik: the log of the unnormalised density of component k at point i
static double main_term(int D, int i, int k, const double *alphas, const double *means,
                        const double *qs, const double *x) {
  double sumq = 0.0, sq = 0.0;
  for (int d = 0; d < D; d++) {
    double z = exp(qs[k * D + d]) * (x[i * D + d] - means[k * D + d]);
    sumq += qs[k * D + d];
    sq += z * z;
  }
  return alphas[k] + sumq - 0.5 * sq;
}

#pragma adsoac grad wrt(alphas, means, qs)
double gmm(int n, int K, int D, const double *alphas, const double *means,
           const double *qs, const double *x, double gamma, int m) {
  double total = 0.0;
#pragma adsoac reduce(+: total)
  for (int i = 0; i < n; i++) {
    double mx = -INFINITY;
#pragma adsoac reduce(max: mx)
    for (int k = 0; k < K; k++) {
      double v = main_term(D, i, k, alphas, means, qs, x);
      if (v > mx) mx = v;
    }
    double se = 0.0;
#pragma adsoac reduce(+: se)
    for (int k = 0; k < K; k++)
      se += exp(main_term(D, i, k, alphas, means, qs, x) - mx);
    total += mx + log(se);
  }

  double amax = -INFINITY;
#pragma adsoac reduce(max: amax)
  for (int k = 0; k < K; k++)
    if (alphas[k] > amax) amax = alphas[k];
  double asum = 0.0;
#pragma adsoac reduce(+: asum)
  for (int k = 0; k < K; k++)
    asum += exp(alphas[k] - amax);

  double frob = 0.0, sumqs = 0.0;
#pragma adsoac reduce(+: frob, sumqs)
  for (int j = 0; j < K * D; j++) {
    frob += exp(2.0 * qs[j]);
    sumqs += qs[j];
  }
  return total - n * (amax + log(asum)) + 0.5 * gamma * gamma * frob - m * sumqs;
}
