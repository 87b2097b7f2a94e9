// tests/consumer/main.c: calls the generated energy_vjp and checks the gradient against
// central differences of the generated primal.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adsoac.h"
#include "energy_grad.h" // (generated beside energy_grad.c: energy, energy_vjp, energy_jvp)

double consumer_h(void);

enum { N = 12, STEPS = 20 };

static double run(const double *x0, double k) {
  double x[N], tmp[N] = {0};
  memcpy(x, x0, sizeof x);
  return energy(N, STEPS, k, x, tmp);
}

int main(void) {
  double x0[N], x[N], xb[N] = {0}, tmp[N] = {0}, tb[N] = {0}, kb = 0, k = 0.3;
  for (int i = 0; i < N; i++) x0[i] = sin(0.7 * i) + 0.05 * i;
  memcpy(x, x0, sizeof x);
  double e = energy_vjp(N, STEPS, k, &kb, x, xb, tmp, tb, 1.0);
  if (adsoac_last_error()) {
    printf("error: %s\n", adsoac_last_error());
    return 1;
  }
  double h = consumer_h(), worst = 0;
  for (int i = 0; i <= N; i++) {
    double xp[N], xm[N];
    memcpy(xp, x0, sizeof xp);
    memcpy(xm, x0, sizeof xm);
    double fd, g;
    if (i < N) {
      xp[i] += h, xm[i] -= h;
      fd = (run(xp, k) - run(xm, k)) / (2 * h), g = xb[i];
    } else {
      fd = (run(x0, k + h) - run(x0, k - h)) / (2 * h), g = kb;
    }
    double err = fabs(g - fd) / (1 + fabs(fd));
    if (err > worst) worst = err;
  }
  printf("energy = %.12f, gradient vs finite differences: worst relative error %.2e\n", e, worst);
  printf("%s\n", worst < 1e-6 ? "consumer: ok" : "consumer: FAILED");
  return worst < 1e-6 ? 0 : 1;
}
