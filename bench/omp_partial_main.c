// Timing driver for the omp_partial benchmark: examples/openmp/partial/partial.c as it is (an
// OpenMP kernel whose reductions are written by hand: private partials in an `omp for`,
// merged under `omp atomic` and `omp critical`; `#pragma adsoac grad` added). Links three
// objects:
//   norms_seq                          partial.c compiled by cc directly WITH -fopenmp: the
//                                      original OpenMP code (the seq-C column of this row)
//   norms, norms_vjp, norms_jvp        adsoac's translation
// No hand-written adjoint: f_vjp is checked against finite differences of the original.
// Usage: omp_partial_bench [N [REPS]]. Problem: N elements, v in [-1, 1), wt in [0.5, 1.5),
// except v[N/3] = -3, wt[N/3] = 1: the maximum out[1] = 3 has no tie (every other
// |v| wt < 1.5). The written output out[2] is seeded {1.25, 0.75} in the checks; the timed vjp
// restores the seeds {1, 1} before each call (the call leaves 0: out is written, never read).
#include "harness.h"

void norms_seq(int n, const double *v, const double *wt, double *out);
void norms(int n, const double *v, const double *wt, double *out);
void norms_vjp(int n, const double *v, double *v_bar, const double *wt, double *wt_bar,
               double *out, double *out_bar);
void norms_jvp(int n, const double *v, const double *v_dot, const double *wt,
               const double *wt_dot, double *out, double *out_dot);

static int n;
static double *v, *wt, *vb, *wb, out[2], outs[2], ob[2];
static const double seed[2] = {1.25, 0.75};

static double run_seq(void) { norms_seq(n, v, wt, outs); return outs[0]; }
static double run_primal(void) { norms(n, v, wt, out); return out[0]; }
static double run_vjp(void) {
  ob[0] = ob[1] = 1.0;
  norms_vjp(n, v, vb, wt, wb, out, ob);
  return out[0];
}
// L = 1.25 out[0] + 0.75 out[1] of the original
static double L_seq(void) {
  run_seq();
  return seed[0] * outs[0] + seed[1] * outs[1];
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "omp_partial", argc, argv);
  n = b.n;
  v = bench_alloc(&b), wt = bench_alloc(&b), vb = bench_alloc(&b), wb = bench_alloc(&b);
  bench_fill(v, n, 17, -1.0, 1.0);
  bench_fill(wt, n, 18, 0.5, 1.5);
  int im = n / 3;
  v[im] = -3.0, wt[im] = 1.0;
  printf("# omp_partial: %d elements (examples/openmp/partial/partial.c)\n", n);
  fflush(stdout);
  // ---- checks ----
  run_seq();
  run_primal();
  bench_check_array(&b, "primal out vs the original OpenMP", out, outs, 2, 1e-9);
  memset(vb, 0, sizeof *vb * (size_t)n);
  memset(wb, 0, sizeof *wb * (size_t)n);
  ob[0] = seed[0], ob[1] = seed[1];
  norms_vjp(n, v, vb, wt, wb, out, ob);
  bench_check_array(&b, "vjp out vs the original OpenMP", out, outs, 2, 1e-9);
  static const double zero[2] = {0.0, 0.0};
  bench_check_array(&b, "vjp out_bar on exit (0)", ob, zero, 2, 1e-9);
  // (at 0, the maximum's index and n - 1; out[0] = sqrt(S), S ~ n/3: it bends less as n
  // grows while the rounding of S grows with n, hence a step of 1e-5 sqrt(n); out[1] is
  // linear in v[N/3] and wt[N/3] within 1.5 of the maximum)
  int at[3] = {0, im, n - 1};
  double h = 1e-5 * sqrt((double)n);
  for (int k = 0; k < 3; k++) {
    for (int w = 0; w < 2; w++) {
      double *x = w ? wt : v, g = w ? wb[at[k]] : vb[at[k]], xk = x[at[k]];
      x[at[k]] = xk + h; double fp = L_seq();
      x[at[k]] = xk - h; double fm = L_seq();
      x[at[k]] = xk;
      bench_check_vjp_fd(&b, w ? "d/dwt (finite difference)" : "d/dv (finite difference)", g,
                         fp, fm, h);
    }
  }
  double *vd = bench_alloc(&b), *wd = bench_alloc(&b), od[2] = {0.0, 0.0};
  bench_fill(vd, n, 19, -1.0, 1.0);
  bench_fill(wd, n, 20, -1.0, 1.0);
  norms_jvp(n, v, vd, wt, wd, out, od);
  bench_check_scalar(&b, "jvp tangent vs <vjp adjoints, tangents>",
                     seed[0] * od[0] + seed[1] * od[1], bench_inner(vb, vd, wb, wd, n), 1e-8);
  free(vd), free(wd);
  // ---- timing ----
  memset(vb, 0, sizeof *vb * (size_t)n);
  memset(wb, 0, sizeof *wb * (size_t)n);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);
  free(v), free(wt), free(vb), free(wb);
  return b.warnings ? 3 : 0;
}
