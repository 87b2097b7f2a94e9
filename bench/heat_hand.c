// Hand-written OpenMP adjoint of heat (bench/heat.c): what a careful programmer writes
// by hand. Same signature and semantics as adsoac's heat_vjp (language.md §2.1): does
// what heat does (u and tmp end as heat leaves them), accumulates into k_bar, and for
// the written arrays u, tmp takes the seeds of the final contents in u_bar, tmp_bar and
// leaves the adjoints of the initial contents there: tmp_bar[1..n-2] = 0 (overwritten
// before read), tmp_bar[0], tmp_bar[n-1] keep their seed (never touched), u_bar[0],
// u_bar[n-1] (read, never written) accumulate, u_bar[1..n-2] become the adjoint of the
// initial interior.
// The step u <- A(k) u (tmp = the same interior) is linear in u, A symmetric on the
// interior, so with g = the adjoint of the interior after the step (g = 0 on the
// boundary), going backwards over the states u_t before each step:
//   k_bar += sum_i g[i] (u_t[i-1] - 2 u_t[i] + u_t[i+1]),
//   g[i]  <- (1 - 2k) g[i] + k (g[i-1] + g[i+1])        (interior, one gather: no atomics),
//   u_bar[0] += k g[1],  u_bar[n-1] += k g[n-2],
// starting from g = u_bar + tmp_bar (the copy u[i] = tmp[i] of the last step).
// Checkpointing every S = ceil(sqrt(steps)) steps: the forward pass keeps the state at
// the start of every block of S steps (ceil(steps/S) states); the reverse pass, block by
// block from the last, recomputes the block's states from its checkpoint into a buffer
// of S states and runs the reverse steps over them. Memory: about 2 sqrt(steps) states
// instead of steps; work: one extra forward pass. One parallel region per pass (loops
// over the grid split with omp for); the gather needs no atomics.
#include <stdlib.h>

// One forward step from state s (n values, boundaries included) into the interior of d;
// called inside a parallel region (an orphaned omp for, with its barrier).
static void step(double *restrict d, const double *restrict s, double k, int n) {
#pragma omp for schedule(static)
  for (int i = 1; i < n - 1; i++) d[i] = s[i] + k * (s[i - 1] - 2.0 * s[i] + s[i + 1]);
}

void heat_hand(int n, int steps, double k, double *restrict k_bar, double *restrict u,
               double *restrict u_bar, double *restrict tmp, double *restrict tmp_bar) {
  if (n < 3 || steps <= 0) return;  // no step touches anything
  int S = 1;  // ceil(sqrt(steps))
  while ((long long)S * S < steps) S++;
  int nck = (steps + S - 1) / S;
  size_t ns = (size_t)n;
  double *ck = malloc((size_t)nck * ns * sizeof *ck);   // state at the start of each block
  double *buf = malloc((size_t)S * ns * sizeof *buf);   // a block's states, recomputed
  double *g = malloc(2 * ns * sizeof *g), *g2 = g + ns;  // adjoint of the interior, ping-pong
  // ---- forward: the primal, keeping a checkpoint per block ----
#pragma omp parallel
  {
    for (int t = 0; t < steps; t++) {
      if (t % S == 0) {
        double *c = ck + (size_t)(t / S) * ns;
#pragma omp for schedule(static)
        for (int i = 0; i < n; i++) c[i] = u[i];
      }
      step(tmp, u, k, n);
#pragma omp for schedule(static)
      for (int i = 1; i < n - 1; i++) u[i] = tmp[i];
    }
  }
  // ---- reverse ----
  double kb = 0.0, b0 = 0.0, b1 = 0.0;  // k_bar, boundary adjoints (u[0], u[n-1])
  g[0] = g[n - 1] = g2[0] = g2[n - 1] = 0.0;
  for (int j = 0; j < S; j++) {  // the boundaries of the recomputed states never change
    buf[(size_t)j * ns] = u[0];
    buf[(size_t)j * ns + ns - 1] = u[n - 1];
  }
#pragma omp parallel
  {
    double *ga = g, *gb = g2;  // every thread swaps its own copies in step
#pragma omp for schedule(static)
    for (int i = 1; i < n - 1; i++) {  // the copy u[i] = tmp[i] of the last step
      ga[i] = u_bar[i] + tmp_bar[i];
      tmp_bar[i] = 0.0;
    }
    for (int c = nck - 1; c >= 0; c--) {
      int t0 = c * S, L = steps - t0 < S ? steps - t0 : S;
      const double *c0 = ck + (size_t)c * ns;
      for (int j = 1; j < L; j++) {  // states before steps t0 + 1 .. t0 + L - 1
        double *d = buf + (size_t)j * ns;
        const double *s = j == 1 ? c0 : buf + (size_t)(j - 1) * ns;
        step(d, s, k, n);
      }
      for (int j = L - 1; j >= 0; j--) {
        const double *s = j == 0 ? c0 : buf + (size_t)j * ns;
#pragma omp for schedule(static) reduction(+: kb)
        for (int i = 1; i < n - 1; i++) {
          double gi = ga[i];
          kb += gi * (s[i - 1] - 2.0 * s[i] + s[i + 1]);
          gb[i] = (1.0 - 2.0 * k) * gi + k * (ga[i - 1] + ga[i + 1]);
          if (i == 1) b0 += k * gi;      // one iteration, one thread, steps
          if (i == n - 2) b1 += k * gi;  // separated by the loop's barrier
        }
        double *sw = ga; ga = gb; gb = sw;
      }
    }
#pragma omp for schedule(static)
    for (int i = 1; i < n - 1; i++) u_bar[i] = ga[i];
  }
  u_bar[0] += b0;
  u_bar[n - 1] += b1;
  *k_bar += kb;
  free(ck);
  free(buf);
  free(g);
}
