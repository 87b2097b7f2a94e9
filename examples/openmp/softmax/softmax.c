// Softmax cross-entropy, max-normalised, as an OpenMP code writes it: reduction(max) for the
// largest logit, reduction(+) for the normaliser, a parallel loop writing the probabilities,
// only `#pragma adsoac grad` added.
#include <math.h>

#pragma adsoac grad
double softmax_xent(int n, const double *z, int label, double *p) {
  double m = -INFINITY, s = 0.0;
#pragma omp parallel for reduction(max: m)
  for (int i = 0; i < n; i++)
    if (z[i] > m) m = z[i];
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; i++) s += exp(z[i] - m);
#pragma omp parallel for
  for (int i = 0; i < n; i++) p[i] = exp(z[i] - m) / s;
  return log(s) + m - z[label];
}
