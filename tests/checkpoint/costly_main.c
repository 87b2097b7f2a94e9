// tests/checkpoint: what a store-all loop keeps grows with its trip count; with stripmine(2)
// about with its square root (tests/checkpoint/costly.c). The peak bytes of the saved states
// (adsoac_checkpoint_peak) at T and 4T steps: about 4x without strip-mining, about 2x with
// it (checked: above 3.5x, below 2.6x), and at 4T at most a fifth of the other's. The two
// gradients must agree.
#include <math.h>
#include <stdio.h>

#include "adsoac.h"

typedef void (*Vjp)(int, int, const double *, double *, double *, double *);
void costly_s0_vjp(int, int, const double *, double *, double *, double *);
void costly_s2_vjp(int, int, const double *, double *, double *, double *);

enum { N = 64, T = 1000 };

static double run(Vjp f, int steps, double *grad) {
  double w[N], wb[N], u[N], ub[N];
  for (int i = 0; i < N; i++) {
    w[i] = 0.5 + 0.4 * sin(0.3 * i);
    u[i] = cos(0.7 * i);
    wb[i] = 0;
    ub[i] = 1.0 / (1 + i);
  }
  adsoac_checkpoint_reset();
  f(N, steps, w, wb, u, ub);
  for (int i = 0; i < N; i++) grad[i] = wb[i], grad[N + i] = ub[i];
  return (double)adsoac_checkpoint_peak();
}

int main(void) {
  double g0[2 * N], g2[2 * N];
  double p0 = run(costly_s0_vjp, T, g0), q0 = run(costly_s0_vjp, 4 * T, g0);
  double p2 = run(costly_s2_vjp, T, g2), q2 = run(costly_s2_vjp, 4 * T, g2);
  if (adsoac_last_error()) {
    printf("error: %s\n", adsoac_last_error());
    return 1;
  }
  printf("store-all loop, n = %d: peak bytes at T = %d and %d steps\n", N, T, 4 * T);
  printf("  as it is:     %12.0f %12.0f (x%.2f)\n", p0, q0, q0 / p0);
  printf("  stripmine(2): %12.0f %12.0f (x%.2f)\n", p2, q2, q2 / p2);
  int bad = !(p0 > 0 && p2 > 0 && q0 / p0 > 3.5 && q2 / p2 < 2.6 && q2 < q0 / 5);
  for (int i = 0; i < 2 * N; i++)
    if (fabs(g2[i] - g0[i]) > 1e-10 * (1 + fabs(g0[i]))) {
      printf("FAIL: stripmine(2) gradient [%d] = %.17g, as it is: %.17g\n", i, g2[i], g0[i]);
      bad = 1;
    }
  printf(bad ? "costly: FAIL\n" : "costly: ok (stripmine(2) bounds what store-all keeps)\n");
  return bad;
}
