// Hand-written OpenMP adjoint of gmm (bench/gmm.c): what a careful programmer writes
// by hand. Same signature and semantics as adsoac's gmm_vjp (language.md §2.1, with
// wrt(alphas, means, qs)): returns the primal and accumulates into alphas_bar,
// means_bar, qs_bar. The standard analytic gradient of the ADBench GMM objective with
// diagonal covariances: with E_kd = exp(q_kd), r = x_id - mu_kd, z = E_kd r and
//   v_ik = alpha_k + sum_d q_kd - 0.5 sum_d z^2,  w_ik = softmax_k(v_ik),
//   d/dalpha_k = sum_i w_ik - n softmax(alphas)_k,
//   d/dmu_kd   = sum_i w_ik E_kd^2 r,
//   d/dq_kd    = sum_i w_ik (1 - z^2) + gamma^2 exp(2 q_kd) - m.
// One fused parallel pass over the points (E and sum_d q_kd precomputed once, the K
// main terms of a point kept in a small local array, one exp per (i, k)), per-thread
// gradient accumulators (K + 2 K D doubles each) merged after the pass.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

double gmm_hand(int n, int K, int D, const double *restrict alphas,
                double *restrict alphas_bar, const double *restrict means,
                double *restrict means_bar, const double *restrict qs,
                double *restrict qs_bar, const double *restrict x, double gamma, int m,
                double ret_bar) {
  int KD = K * D;
#ifdef _OPENMP
  int nt = omp_get_max_threads();
#else
  int nt = 1;
#endif
  size_t per = (size_t)K + 2 * (size_t)KD;  // one thread's alpha, mu, q accumulators
  double *E = malloc(((size_t)KD + K + 1) * sizeof *E), *sumq = E + KD;
  double *acc = calloc((size_t)nt * per + 1, sizeof *acc);
  for (int k = 0; k < K; k++) {
    double s = 0.0;
    for (int d = 0; d < D; d++) {
      E[k * D + d] = exp(qs[k * D + d]);
      s += qs[k * D + d];
    }
    sumq[k] = s;
  }
  double total = 0.0;
#pragma omp parallel reduction(+: total)
  {
#ifdef _OPENMP
    double *my = acc + (size_t)omp_get_thread_num() * per;
#else
    double *my = acc;
#endif
    double *ab = my, *mb = my + K, *qb = my + K + KD;
    double *v = malloc(((size_t)K + 1) * sizeof *v);
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      const double *xi = x + (size_t)i * D;
      double mx = -INFINITY;
      for (int k = 0; k < K; k++) {
        const double *mu = means + k * D, *e = E + k * D;
        double sq = 0.0;
        for (int d = 0; d < D; d++) {
          double z = e[d] * (xi[d] - mu[d]);
          sq += z * z;
        }
        v[k] = alphas[k] + sumq[k] - 0.5 * sq;
        if (v[k] > mx) mx = v[k];
      }
      double se = 0.0;
      for (int k = 0; k < K; k++) {
        v[k] = exp(v[k] - mx);
        se += v[k];
      }
      total += mx + log(se);
      double inv = 1.0 / se;
      for (int k = 0; k < K; k++) {
        double w = v[k] * inv;  // softmax weight of component k at point i
        const double *mu = means + k * D, *e = E + k * D;
        ab[k] += w;
        for (int d = 0; d < D; d++) {
          double r = xi[d] - mu[d], z = e[d] * r;
          mb[k * D + d] += w * e[d] * z;
          qb[k * D + d] += w * (1.0 - z * z);
        }
      }
    }
    free(v);
  }
  // -n logsumexp(alphas) and the prior
  double amax = -INFINITY, asum = 0.0;
  for (int k = 0; k < K; k++)
    if (alphas[k] > amax) amax = alphas[k];
  for (int k = 0; k < K; k++) asum += exp(alphas[k] - amax);
  double lse = amax + log(asum), frob = 0.0, sumqs = 0.0;
  for (int j = 0; j < KD; j++) {
    frob += E[j] * E[j];
    sumqs += qs[j];
  }
  // merge the per-thread accumulators, in thread order
  for (int t = 1; t < nt; t++)
    for (size_t j = 0; j < per; j++) acc[j] += acc[(size_t)t * per + j];
  for (int k = 0; k < K; k++)
    alphas_bar[k] += ret_bar * (acc[k] - n * (exp(alphas[k] - amax) / asum));
  for (int j = 0; j < KD; j++) {
    means_bar[j] += ret_bar * acc[K + j];
    qs_bar[j] += ret_bar * (acc[K + KD + j] + gamma * gamma * E[j] * E[j] - m);
  }
  free(E);
  free(acc);
  return total - n * lse + 0.5 * gamma * gamma * frob - m * sumqs;
}
