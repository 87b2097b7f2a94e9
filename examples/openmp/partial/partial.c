// A weighted norm and maximum as older OpenMP codes write reductions by hand: a parallel
// region whose threads accumulate private partials in a work-sharing loop and merge them under
// `atomic` and `critical`; only `#pragma adsoac grad` added.
#include <math.h>

#pragma adsoac grad
void norms(int n, const double *v, const double *wt, double *out) {
  double sum = 0.0, big = 0.0;
#pragma omp parallel
  {
    double part = 0.0, pmax = 0.0;
#pragma omp for
    for (int i = 0; i < n; i++) {
      part += wt[i] * v[i] * v[i];
      pmax = fmax(pmax, fabs(v[i]) * wt[i]);
    }
#pragma omp atomic
    sum += part;
#pragma omp critical
    {
      if (pmax > big) big = pmax;
    }
  }
  out[0] = sqrt(sum);
  out[1] = big;
}
