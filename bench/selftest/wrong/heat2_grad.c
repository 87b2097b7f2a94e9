// DELIBERATELY WRONG: tmp_bar[0], tmp_bar[n-1] (never touched by heat) lose their seed instead of keeping it (see bench/README.md).
// Hand-made stand-in for `adsoac --target=c bench/heat2.c -o heat2_grad.c` (heat with
// stripmine(2)), used by `bench/run.sh --fake bench/selftest`: a copy of
// selftest/heat_grad.c, the same function (only the checkpointing of adsoac differs);
// this one saves every step. Exercises the pipeline without the translator.
// Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output for a sequential time loop (language.md §5): the forward sweep
// saves, per step, the interior of u that the step overwrites (steps states); the
// reverse sweep restores them step by step and runs each step's adjoint (the copy
// u[i] = tmp[i], then the stencil, in gather form: no atomics). u and tmp are written:
// u_bar, tmp_bar hold the seeds of the final contents on entry and the adjoints of the
// initial contents on exit (tmp[1..n-2] is overwritten before it is read: 0).
#include <stdlib.h>
#include <string.h>

static void fwd_step(int n, double k, double *restrict u, double *restrict tmp) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i < n - 1; i++) tmp[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma omp parallel for schedule(static)
  for (int i = 1; i < n - 1; i++) u[i] = tmp[i];
}

void heat(int n, int steps, double k, double *restrict u, double *restrict tmp) {
  for (int t = 0; t < steps; t++) fwd_step(n, k, u, tmp);
}

void heat_vjp(int n, int steps, double k, double *k_bar, double *restrict u,
              double *restrict u_bar, double *restrict tmp, double *restrict tmp_bar) {
  if (n < 3 || steps <= 0) return;
  size_t m = (size_t)n - 2;
  double *saved = malloc((size_t)steps * m * sizeof *saved);  // u[1..n-2] before each step
  double *ub = malloc((size_t)n * sizeof *ub);
  for (int t = 0; t < steps; t++) {  // forward sweep
    memcpy(saved + (size_t)t * m, u + 1, m * sizeof *saved);
    fwd_step(n, k, u, tmp);
  }
  double kb = 0.0;
  for (int t = steps - 1; t >= 0; t--) {  // reverse sweep
    const double *sv = saved + (size_t)t * m;  // sv[i - 1] = u[i] before step t, 1 <= i <= n-2
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++) {  // u[i] = tmp[i]: tmp_bar += u_bar, u_bar = 0
      tmp_bar[i] += u_bar[i];
      u_bar[i] = 0.0;
    }
    // tmp[i] = u[i] + k (u[i-1] - 2 u[i] + u[i+1]): gather the adjoint of u, then tmp_bar = 0
#pragma omp parallel for schedule(static) reduction(+: kb)
    for (int i = 0; i < n; i++) {
      double si = i == 0 ? u[0] : i == n - 1 ? u[n - 1] : sv[i - 1];
      double a = u_bar[i];
      if (i >= 1 && i <= n - 2) {
        double sl = i == 1 ? u[0] : sv[i - 2], sr = i == n - 2 ? u[n - 1] : sv[i];
        a += (1.0 - 2.0 * k) * tmp_bar[i];
        kb += tmp_bar[i] * (sl - 2.0 * si + sr);
      }
      if (i - 1 >= 1) a += k * tmp_bar[i - 1];
      if (i + 1 <= n - 2) a += k * tmp_bar[i + 1];
      ub[i] = a;
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
      u_bar[i] = ub[i];
      if (i >= 1 && i <= n - 2) tmp_bar[i] = 0.0;
    }
  }
  *k_bar += kb;
  tmp_bar[0] = tmp_bar[n - 1] = 0.0;  // wrong: the untouched elements must keep their seed
  free(saved);
  free(ub);
}

void heat_jvp(int n, int steps, double k, double k_dot, double *restrict u,
              double *restrict u_dot, double *restrict tmp, double *restrict tmp_dot) {
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++) {
      double lap = u[i - 1] - 2.0 * u[i] + u[i + 1];
      double lap_dot = u_dot[i - 1] - 2.0 * u_dot[i] + u_dot[i + 1];
      tmp[i] = u[i] + k * lap;
      tmp_dot[i] = u_dot[i] + k_dot * lap + k * lap_dot;
    }
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++) {
      u[i] = tmp[i];
      u_dot[i] = tmp_dot[i];
    }
  }
}
