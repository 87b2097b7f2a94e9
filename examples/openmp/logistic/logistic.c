// Logistic regression's loss as an OpenMP code writes it: a parallel loop over the samples
// with a reduction, the sample's margin computed in a private scalar, only
// `#pragma adsoac grad` added.
#include <math.h>

#pragma adsoac grad
double logistic_loss(int n, int d, const double *X, const int *y, const double *w,
                     double lambda) {
  double loss = 0.0, z;
  int i, j;
#pragma omp parallel for private(j, z) reduction(+: loss) schedule(static)
  for (i = 0; i < n; i++) {
    z = 0.0;
    for (j = 0; j < d; j++) z += X[i * d + j] * w[j];
    loss += log1p(exp(-(2 * y[i] - 1) * z));
  }
  double reg = 0.0;
#pragma omp parallel for reduction(+: reg)
  for (j = 0; j < d; j++) reg += w[j] * w[j];
  return loss / n + 0.5 * lambda * reg;
}
