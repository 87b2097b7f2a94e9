// The ADBench GMM objective (Gaussian mixture log-likelihood with a Wishart prior) with
// diagonal covariances: Q_k = diag(exp(q_k)), so the main term of point i and component k is
//   alpha_k + sum_d q_kd - 0.5 * sum_d (exp(q_kd) * (x_id - mu_kd))^2
// and the objective is
//   -N*D/2*log(2 pi) + sum_i logsumexp_k(main term) - N * logsumexp(alphas)
//   + sum_k (0.5 * gamma^2 * sum_d exp(q_kd)^2 - m * sum_d q_kd) - K * C,
// C = n*D*(log(gamma) - 0.5*log(2)) - log Gamma_D(n/2), n = D + m + 1 (the log Gamma_D(n/2)
// constant is omitted).  gmm: reduce(+) over points, inside it a reduce(max) and a reduce(+)
// over components (the log-sum-exp), each component's term a plain sequential loop over d in a
// static helper; gmm_seq: the same with plain sequential loops over k and d written out inline.
// The log-sum-exp of the alphas and the prior are separate annotated loops.
// e2e: sizes N=0,1,3,5,2 K=1,2,3,2,3 D=1,2,3,1,2
// e2e: int m = D + 1
// e2e: array alphas[K] range(-1,1)
// e2e: array means[K*D] range(-1,1)
// e2e: array qs[K*D] range(-0.5,0.5)
// e2e: array x[N*D] range(-1,1)
// e2e: scalar gamma range(0.5,2)
#include <math.h>

// log of the unnormalised density of component k at point i
static double main_term(int D, int k, int i, const double *alphas, const double *means,
                        const double *qs, const double *x) {
  double sumq = 0.0, sq = 0.0;
  for (int d = 0; d < D; d++) {
    double z = exp(qs[k * D + d]) * (x[i * D + d] - means[k * D + d]);
    sumq += qs[k * D + d];
    sq += z * z;
  }
  return alphas[k] + sumq - 0.5 * sq;
}

#pragma adsoac grad
double gmm(int N, int K, int D, const double *alphas, const double *means, const double *qs,
           const double *x, double gamma, int m) {
  double total = 0.0;
#pragma adsoac reduce(+: total)
  for (int i = 0; i < N; i++) {
    double mx = -INFINITY;
#pragma adsoac reduce(max: mx)
    for (int k = 0; k < K; k++) {
      double v = main_term(D, k, i, alphas, means, qs, x);
      if (v > mx) mx = v;
    }
    double se = 0.0;
#pragma adsoac reduce(+: se)
    for (int k = 0; k < K; k++)
      se += exp(main_term(D, k, i, alphas, means, qs, x) - mx);
    total += mx + log(se);
  }

  double amax = -INFINITY;
#pragma adsoac reduce(max: amax)
  for (int k = 0; k < K; k++)
    amax = fmax(amax, alphas[k]);
  double asum = 0.0;
#pragma adsoac reduce(+: asum)
  for (int k = 0; k < K; k++)
    asum += exp(alphas[k] - amax);
  double lse_alphas = amax + log(asum);

  double frob = 0.0, sumqs = 0.0;
#pragma adsoac reduce(+: frob, sumqs)
  for (int j = 0; j < K * D; j++) {
    double e = exp(qs[j]);
    frob += e * e;
    sumqs += qs[j];
  }
  int n = D + m + 1;
  double C = n * D * (log(gamma) - 0.5 * log(2.0));
  double prior = 0.5 * gamma * gamma * frob - m * sumqs - K * C;
  double constant = -N * D * 0.5 * log(2.0 * 3.14159265358979323846);
  return constant + total - N * lse_alphas + prior;
}

#pragma adsoac grad
double gmm_seq(int N, int K, int D, const double *alphas, const double *means, const double *qs,
               const double *x, double gamma, int m) {
  double total = 0.0;
#pragma adsoac reduce(+: total)
  for (int i = 0; i < N; i++) {
    double mx = -INFINITY;
    for (int k = 0; k < K; k++) {
      double v = alphas[k];
      for (int d = 0; d < D; d++) {
        double z = exp(qs[k * D + d]) * (x[i * D + d] - means[k * D + d]);
        v += qs[k * D + d] - 0.5 * z * z;
      }
      if (v > mx) mx = v;
    }
    double se = 0.0;
    for (int k = 0; k < K; k++) {
      double v = alphas[k];
      for (int d = 0; d < D; d++) {
        double z = exp(qs[k * D + d]) * (x[i * D + d] - means[k * D + d]);
        v += qs[k * D + d] - 0.5 * z * z;
      }
      se += exp(v - mx);
    }
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

  double prior = 0.0;
#pragma adsoac reduce(+: prior)
  for (int k = 0; k < K; k++) {
    double fk = 0.0, sk = 0.0;
    for (int d = 0; d < D; d++) {
      fk += exp(2.0 * qs[k * D + d]);
      sk += qs[k * D + d];
    }
    prior += 0.5 * gamma * gamma * fk - m * sk;
  }
  int n = D + m + 1;
  return total - N * (amax + log(asum)) + prior - K * n * D * (log(gamma) - 0.5 * log(2.0));
}
