// A discounted running return (reinforcement learning's reward-to-go, forward form) with
// OpenMP 5's prefix scans: reduction(inscan, +) with `omp scan inclusive`, then an exclusive
// scan of the log-probabilities; only `#pragma adsoac grad` added.
#include <math.h>

#pragma adsoac grad
double running(int n, const double *r, const double *logp, double *cum, double *before) {
  double s = 0.0, lp = 0.0, obj = 0.0;
#pragma omp parallel for simd reduction(inscan, +: s)
  for (int t = 0; t < n; t++) {
    s += r[t] * r[t];
#pragma omp scan inclusive(s)
    cum[t] = s;
  }
#pragma omp parallel for reduction(inscan, +: lp)
  for (int t = 0; t < n; t++) {
    before[t] = exp(lp);
#pragma omp scan exclusive(lp)
    lp += logp[t];
  }
#pragma omp parallel for reduction(+: obj)
  for (int t = 0; t < n; t++) obj += cum[t] * before[t];
  return obj;
}
