// examples/gmm/gmm.c: the ADBench Gaussian-mixture objective (GMM log-likelihood with a
// Wishart prior), with diagonal covariances, as legacy C annotated for adsoac.
//
// Model: K components in D dimensions, N data points x[N*D].  Component k has the weight
// logit alphas[k], the mean means[k*D .. k*D+D-1] and qs[k*D + d] = the log of the inverse
// standard deviation in dimension d (so Q_k = diag(exp(q_k)) and log det Q_k = sum_d q_kd).
// The log of the unnormalised density of component k at point i is
//   v_ik = alpha_k + sum_d q_kd - 0.5 * sum_d (exp(q_kd) * (x_id - mu_kd))^2
// and the function returns
//   -N*D/2 * log(2 pi) + sum_i logsumexp_k(v_ik) - N * logsumexp_k(alpha_k)
//   + sum_kd (0.5 * gamma^2 * exp(2 q_kd) - m * q_kd) - K * n*D*(log(gamma) - 0.5*log(2))
// with n = D + m + 1 (the Wishart normaliser's log Gamma_D(n/2) term, a constant, is left out).
//
// Annotations:
//   - grad wrt(alphas, means, qs): differentiate with respect to the model parameters only,
//     as ADBench does; the data x and the prior's gamma stay inactive (m, sizes are ints).
//   - reduce(+: total) over the points: each point adds its log-sum-exp independently.
//   - inside it, reduce(max: mx) then reduce(+: se) over the components: the numerically
//     stable log-sum-exp (max first, then the sum of exp(v - max)).  v_ik is a plain
//     sequential loop over d in the static helper main_term, evaluated in both passes (a
//     loop body may not allocate a per-point temporary array).
//   - reduce(max) and reduce(+) over the alphas: their log-sum-exp.
//   - reduce(+: frob, sumqs) over all K*D entries of qs: the Wishart prior.
// f_vjp (gmm_vjp) returns the objective and adds ret_bar * d/d{alphas,means,qs} into
// alphas_bar, means_bar, qs_bar: the full parameter gradient in one reverse pass.
#include <math.h>

// v_ik: log of the unnormalised density of component k at point i
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
double gmm(int N, int K, int D, const double *alphas, const double *means, const double *qs,
           const double *x, double gamma, int m) {
  // data term: sum over points of log sum_k exp(v_ik)
  double total = 0.0;
#pragma adsoac reduce(+: total)
  for (int i = 0; i < N; i++) {
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

  // normalisation of the mixture weights: log sum_k exp(alpha_k)
  double amax = -INFINITY;
#pragma adsoac reduce(max: amax)
  for (int k = 0; k < K; k++)
    if (alphas[k] > amax) amax = alphas[k];
  double asum = 0.0;
#pragma adsoac reduce(+: asum)
  for (int k = 0; k < K; k++)
    asum += exp(alphas[k] - amax);
  double lse_alphas = amax + log(asum);

  // Wishart prior on the diagonal precisions
  double frob = 0.0, sumqs = 0.0;
#pragma adsoac reduce(+: frob, sumqs)
  for (int j = 0; j < K * D; j++) {
    frob += exp(2.0 * qs[j]);
    sumqs += qs[j];
  }
  int n = D + m + 1;
  double wishart_c = n * D * (log(gamma) - 0.5 * log(2.0));
  double prior = 0.5 * gamma * gamma * frob - m * sumqs - K * wishart_c;
  double constant = -0.5 * N * D * log(2.0 * 3.14159265358979323846);
  return constant + total - N * lse_alphas + prior;
}
