// tests/checkpoint: the peak memory of the saved states of heat_s1/s2/s3 (tests/e2e/
// heat_steps.c, stripmine 1, 2, 3) over T = 1000 steps, measured by the runtime
// (adsoac_checkpoint_peak), against the states the scheme keeps: T for one level,
// ceil(T / B^(L-1)) + (L-1) * B for L levels with B = ceil(T^(1/L)), about L * T^(1/L).
// A state is u[1:n-1]: tmp is overwritten before it is read in every step, so each level
// saves it once (its contents before that level's loop), not per iteration.
// The three gradients must agree (the levels change what is recomputed, not the result).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "adsoac.h"

typedef void (*Vjp)(int, int, double, double *, double *, double *, double *, double *);
void heat_s1_vjp(int, int, double, double *, double *, double *, double *, double *);
void heat_s2_vjp(int, int, double, double *, double *, double *, double *, double *);
void heat_s3_vjp(int, int, double, double *, double *, double *, double *, double *);

enum { N = 66, T = 1000 };

int main(void) {
  Vjp fns[3] = {heat_s1_vjp, heat_s2_vjp, heat_s3_vjp};
  double grads[3][N + 1];
  const double state = (N - 2) * sizeof(double); // u[1:n-1]; tmp[1:n-1] once per level
  int bad = 0;
  printf("heat stencil, n = %d, T = %d steps; one state = %.0f bytes\n", N, T, state);
  printf("%-10s %12s %12s %14s %12s\n", "stripmine", "states kept", "L*T^(1/L)", "scheme keeps", "peak bytes");
  for (int l = 0; l < 3; l++) {
    int L = l + 1;
    double u[N], tmp[N], ub[N], tb[N], kb = 0;
    for (int i = 0; i < N; i++) {
      u[i] = sin(0.3 * i) + 0.1 * i / N;
      tmp[i] = 0;
      ub[i] = cos(0.7 * i);
      tb[i] = 0;
    }
    adsoac_checkpoint_reset();
    fns[l](N, T, 0.3, &kb, u, ub, tmp, tb);
    if (adsoac_last_error()) {
      printf("error: %s\n", adsoac_last_error());
      return 1;
    }
    double peak = (double)adsoac_checkpoint_peak(), states = (peak - L * state) / state;
    long B = (long)ceil(pow(T, 1.0 / L)), chunk = 1;
    for (int k = 1; k < L; k++) chunk *= B;
    long keeps = (T + chunk - 1) / chunk + (L - 1) * B;
    printf("%-10d %12.1f %12.1f %14ld %12.0f\n", L, states, L * pow(T, 1.0 / L), keeps, peak);
    if (states > keeps + 1e-9 || states < 0.9 * keeps) {
      printf("  FAIL: expected about %ld states\n", keeps);
      bad = 1;
    }
    for (int i = 0; i < N; i++) grads[l][i] = ub[i];
    grads[l][N] = kb;
  }
  for (int l = 1; l < 3; l++)
    for (int i = 0; i <= N; i++)
      if (fabs(grads[l][i] - grads[0][i]) > 1e-10 * (1 + fabs(grads[0][i]))) {
        printf("FAIL: stripmine %d gradient [%d] = %.17g, stripmine 1: %.17g\n", l + 1, i,
               grads[l][i], grads[0][i]);
        bad = 1;
      }
  if (adsoac_checkpoint_peak() == 0) bad = 1;
  printf(bad ? "checkpoint: FAIL\n" : "checkpoint: ok (gradients agree across levels)\n");
  return bad;
}
