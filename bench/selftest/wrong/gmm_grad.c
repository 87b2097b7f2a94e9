// DELIBERATELY WRONG: qs_bar misses the prior's -m term (see bench/README.md).
// Hand-made stand-in for `adsoac --target=c bench/gmm.c -o gmm_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline without the
// translator. Plain OpenMP, interface per docs/language.md §2 (wrt(alphas, means, qs):
// x and gamma inactive).
// Shaped like AD output: a forward sweep (the primal, main terms recomputed as the
// legacy code does, exp(q) per use), then a reverse sweep over the points that
// recomputes each point's main terms, its maximum and its sum, and accumulates the
// adjoints; per-thread partial gradients combined by an OpenMP array reduction.
#include <math.h>
#include <stdlib.h>

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

static double lse_point(int K, int D, int i, const double *alphas, const double *means,
                        const double *qs, const double *x, double *mx_out, double *se_out) {
  double mx = -INFINITY, se = 0.0;
  for (int k = 0; k < K; k++) {
    double v = main_term(D, i, k, alphas, means, qs, x);
    if (v > mx) mx = v;
  }
  for (int k = 0; k < K; k++) se += exp(main_term(D, i, k, alphas, means, qs, x) - mx);
  if (mx_out) *mx_out = mx;
  if (se_out) *se_out = se;
  return mx + log(se);
}

static double rest(int n, int K, int D, const double *alphas, const double *qs,
                   double gamma, int m, double *amax_out, double *asum_out) {
  double amax = -INFINITY, asum = 0.0, frob = 0.0, sumqs = 0.0;
  for (int k = 0; k < K; k++)
    if (alphas[k] > amax) amax = alphas[k];
  for (int k = 0; k < K; k++) asum += exp(alphas[k] - amax);
  for (int j = 0; j < K * D; j++) {
    frob += exp(2.0 * qs[j]);
    sumqs += qs[j];
  }
  if (amax_out) *amax_out = amax;
  if (asum_out) *asum_out = asum;
  return -n * (amax + log(asum)) + 0.5 * gamma * gamma * frob - m * sumqs;
}

double gmm(int n, int K, int D, const double *alphas, const double *means,
           const double *qs, const double *x, double gamma, int m) {
  double total = 0.0;
#pragma omp parallel for schedule(static) reduction(+: total)
  for (int i = 0; i < n; i++) total += lse_point(K, D, i, alphas, means, qs, x, NULL, NULL);
  return total + rest(n, K, D, alphas, qs, gamma, m, NULL, NULL);
}

double gmm_vjp(int n, int K, int D, const double *alphas, double *alphas_bar,
               const double *means, double *means_bar, const double *qs, double *qs_bar,
               const double *x, double gamma, int m, double ret_bar) {
  double r = gmm(n, K, D, alphas, means, qs, x, gamma, m);  // forward sweep
  int KD = K * D, len = K + 2 * KD;
  double *acc = calloc((size_t)len, sizeof *acc);  // alphas, means, qs
#pragma omp parallel for schedule(static) reduction(+: acc[:len])
  for (int i = 0; i < n; i++) {  // reverse sweep
    double mx, se;
    lse_point(K, D, i, alphas, means, qs, x, &mx, &se);
    for (int k = 0; k < K; k++) {
      double w = ret_bar * exp(main_term(D, i, k, alphas, means, qs, x) - mx) / se;
      acc[k] += w;
      for (int d = 0; d < D; d++) {
        double e = exp(qs[k * D + d]), dx = x[i * D + d] - means[k * D + d], z = e * dx;
        acc[K + k * D + d] += w * z * e;
        acc[K + KD + k * D + d] += w * (1.0 - z * z);
      }
    }
  }
  double amax, asum;
  rest(n, K, D, alphas, qs, gamma, m, &amax, &asum);
  for (int k = 0; k < K; k++)
    alphas_bar[k] += acc[k] - ret_bar * n * exp(alphas[k] - amax) / asum;
  for (int j = 0; j < KD; j++) {
    means_bar[j] += acc[K + j];
    qs_bar[j] += acc[K + KD + j] + ret_bar * (gamma * gamma * exp(2.0 * qs[j]));  // wrong: no - m
  }
  free(acc);
  return r;
}

double gmm_jvp(int n, int K, int D, const double *alphas, const double *alphas_dot,
               const double *means, const double *means_dot, const double *qs,
               const double *qs_dot, const double *x, double gamma, int m, double *ret_dot) {
  double total = 0.0, tdot = 0.0;
#pragma omp parallel for schedule(static) reduction(+: total, tdot)
  for (int i = 0; i < n; i++) {
    double mx, se, sd = 0.0;
    total += lse_point(K, D, i, alphas, means, qs, x, &mx, &se);
    for (int k = 0; k < K; k++) {
      double vd = alphas_dot[k];
      for (int d = 0; d < D; d++) {
        int j = k * D + d;
        double e = exp(qs[j]), z = e * (x[i * D + d] - means[j]);
        vd += qs_dot[j] - z * (z * qs_dot[j] - e * means_dot[j]);
      }
      sd += exp(main_term(D, i, k, alphas, means, qs, x) - mx) * vd;
    }
    tdot += sd / se;
  }
  double amax, asum, rd = 0.0;
  double r = rest(n, K, D, alphas, qs, gamma, m, &amax, &asum);
  for (int k = 0; k < K; k++) rd -= n * exp(alphas[k] - amax) / asum * alphas_dot[k];
  for (int j = 0; j < K * D; j++) rd += (gamma * gamma * exp(2.0 * qs[j]) - m) * qs_dot[j];
  *ret_dot = tdot + rd;
  return total + r;
}
