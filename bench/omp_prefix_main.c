// Timing driver for the omp_prefix benchmark: examples/openmp/prefix/prefix.c as it is (an
// OpenMP 5 kernel with `reduction(inscan, +)` and `omp scan inclusive/exclusive`,
// `#pragma adsoac grad` added). Links three objects:
//   running_seq                        prefix.c compiled by cc directly WITH -fopenmp: the
//                                      original OpenMP code (the seq-C column of this row)
//   running, running_vjp, running_jvp  adsoac's translation
// No hand-written adjoint: f_vjp is checked against finite differences of the original.
// Usage: omp_prefix_bench [N [REPS]]. Problem: N time steps, r in [-1, 1), logp in
// [-1e-3, 1e-3) (so exp of its running sum stays near 1). The written outputs cum and before
// are seeded with values in [0.5, 1.5) in the checks (ret_bar 1.5); the timed vjp resets
// their seeds to 0 before each call (two arrays of n: the call leaves 0 there, cum and
// before being written before they are read).
#include "harness.h"

double running_seq(int n, const double *r, const double *logp, double *cum, double *before);
double running(int n, const double *r, const double *logp, double *cum, double *before);
double running_vjp(int n, const double *r, double *r_bar, const double *logp, double *logp_bar,
                   double *cum, double *cum_bar, double *before, double *before_bar,
                   double ret_bar);
double running_jvp(int n, const double *r, const double *r_dot, const double *logp,
                   const double *logp_dot, double *cum, double *cum_dot, double *before,
                   double *before_dot, double *ret_dot);

static int n;
static double *r, *logp, *cum, *bef, *cums, *befs, *rb, *lb, *cb, *bb, *cs, *bs;

static double run_seq(void) { return running_seq(n, r, logp, cums, befs); }
static double run_primal(void) { return running(n, r, logp, cum, bef); }
static double run_vjp(void) {
  memset(cb, 0, sizeof *cb * (size_t)n);
  memset(bb, 0, sizeof *bb * (size_t)n);
  return running_vjp(n, r, rb, logp, lb, cum, cb, bef, bb, 1.0);
}
// L = 1.5 obj + <cs, cum> + <bs, before> of the original
static double L_seq(void) {
  double o = run_seq();
  return 1.5 * o + bench_inner(cs, cums, bs, befs, n);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "omp_prefix", argc, argv);
  n = b.n;
  r = bench_alloc(&b), logp = bench_alloc(&b), cum = bench_alloc(&b), bef = bench_alloc(&b);
  cums = bench_alloc(&b), befs = bench_alloc(&b), rb = bench_alloc(&b), lb = bench_alloc(&b);
  cb = bench_alloc(&b), bb = bench_alloc(&b), cs = bench_alloc(&b), bs = bench_alloc(&b);
  bench_fill(r, n, 11, -1.0, 1.0);
  bench_fill(logp, n, 12, -1e-3, 1e-3);
  bench_fill(cs, n, 13, 0.5, 1.5);
  bench_fill(bs, n, 14, 0.5, 1.5);
  printf("# omp_prefix: %d time steps (examples/openmp/prefix/prefix.c)\n", n);
  fflush(stdout);
  // ---- checks ----
  double o = run_seq();
  bench_check_scalar(&b, "primal vs the original OpenMP", run_primal(), o, 1e-9);
  bench_check_array(&b, "primal cum vs the original OpenMP", cum, cums, n, 1e-9);
  bench_check_array(&b, "primal before vs the original OpenMP", bef, befs, n, 1e-9);
  memset(rb, 0, sizeof *rb * (size_t)n);
  memset(lb, 0, sizeof *lb * (size_t)n);
  bench_dcopy(cb, cs, n);
  bench_dcopy(bb, bs, n);
  bench_check_scalar(&b, "vjp result vs the original OpenMP",
                     running_vjp(n, r, rb, logp, lb, cum, cb, bef, bb, 1.5), o, 1e-9);
  bench_check_array(&b, "vjp cum vs the original OpenMP", cum, cums, n, 1e-9);
  bench_check_array(&b, "vjp before vs the original OpenMP", bef, befs, n, 1e-9);
  double *zero = bench_alloc(&b);
  memset(zero, 0, sizeof *zero * (size_t)n);
  bench_check_array(&b, "vjp cum_bar on exit (0)", cb, zero, n, 1e-9);
  bench_check_array(&b, "vjp before_bar on exit (0)", bb, zero, n, 1e-9);
  free(zero);
  int at[3] = {0, n / 3, n / 2};
  for (int k = 0; k < 3; k++) { // (r: L is quadratic in each r[t], exact for any step)
    double v = r[at[k]], h = 0.5;
    r[at[k]] = v + h; double fp = L_seq();
    r[at[k]] = v - h; double fm = L_seq();
    r[at[k]] = v;
    bench_check_vjp_fd(&b, "d/dr (finite difference)", rb[at[k]], fp, fm, h);
  }
  for (int k = 0; k < 3; k++) { // (logp: a factor exp(h) on the later terms, step 1e-5)
    double v = logp[at[k]], h = 1e-5;
    logp[at[k]] = v + h; double fp = L_seq();
    logp[at[k]] = v - h; double fm = L_seq();
    logp[at[k]] = v;
    bench_check_vjp_fd(&b, "d/dlogp (finite difference)", lb[at[k]], fp, fm, h);
  }
  double *rd = bench_alloc(&b), *ld = bench_alloc(&b), *cd = bench_alloc(&b);
  double *bd = bench_alloc(&b), dot = 0.0;
  bench_fill(rd, n, 15, -1.0, 1.0);
  bench_fill(ld, n, 16, -1.0, 1.0);
  memset(cd, 0, sizeof *cd * (size_t)n);
  memset(bd, 0, sizeof *bd * (size_t)n);
  running_jvp(n, r, rd, logp, ld, cum, cd, bef, bd, &dot);
  bench_check_scalar(&b, "jvp tangent vs <vjp adjoints, tangents>",
                     1.5 * dot + bench_inner(cs, cd, bs, bd, n), bench_inner(rb, rd, lb, ld, n),
                     1e-8);
  free(rd), free(ld), free(cd), free(bd);
  // ---- timing ----
  memset(rb, 0, sizeof *rb * (size_t)n);
  memset(lb, 0, sizeof *lb * (size_t)n);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);
  free(r), free(logp), free(cum), free(bef), free(cums), free(befs), free(rb), free(lb);
  free(cb), free(bb), free(cs), free(bs);
  return b.warnings ? 3 : 0;
}
