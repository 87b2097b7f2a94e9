// OpenMP atomic updates of arrays whose length the function does not say (pointer
// parameters), language.md 11: the section is every index the loop updates, found by a loop
// before it (the least and the greatest index).  A deposit into bins from an index array, an
// index the body computes from a float (a local declared from another), an atomic compare
// max; bins no iteration reaches (below the least and above the greatest index) keep their
// values and their seeds; n = 0 (an empty section); a single bin.
// e2e: func deposit
// e2e: sizes n=0,1,5,12 nb=1,2,4,6
// e2e: array bin[n] range(0,nb) fill(nb > 2 ? 1 + (i * 7) % (nb - 2) : 0)
// e2e: array w[n] range(-1,1)
// e2e: array h[nb] range(-1,1)
// e2e: func cells
// e2e: sizes n=0,1,6,11
// e2e: array x[n] range(0.05,0.95)
// e2e: array q[n] range(0.5,1.5)
// e2e: array rho[8] range(-1,1)
// e2e: func peaks
// e2e: sizes n=0,1,5,9 nb=1,2,3,5
// e2e: array bin[n] range(0,nb)
// e2e: array v[n] range(-1,1)
// e2e: array hi[nb] range(-1,1)
#include <math.h>

#pragma adsoac grad
void deposit(int n, int nb, const int *bin, const double *w, double *h) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    h[bin[i]] += w[i] * w[i] + 0.5 * w[i];
  }
}

#pragma adsoac grad
double cells(int n, const double *x, const double *q, double *rho) {
  double tot = 0.0;
#pragma omp parallel for reduction(+: tot)
  for (int i = 0; i < n; i++) {
    double s = x[i] * 6.0;
    int c = (int)s + 1;
#pragma omp atomic
    rho[c] += q[i] * (s - floor(s));
    tot += q[i];
  }
  return tot;
}

#pragma adsoac grad
void peaks(int n, int nb, const int *bin, const double *v, double *hi) {
  (void)nb; // (the bins, not said to the loop)
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double e = sin(v[i]) + v[i];
#pragma omp atomic compare
    if (e > hi[bin[i]]) { hi[bin[i]] = e; }
  }
}
