// Timing driver for the omp_softmax benchmark: examples/openmp/softmax/softmax.c as it is (an
// OpenMP kernel, `#pragma adsoac grad` added). Links three objects:
//   softmax_xent_seq                   softmax.c compiled by cc directly WITH -fopenmp: the
//                                      original OpenMP code (the seq-C column of this row)
//   softmax_xent, _vjp, _jvp           adsoac's translation
// No hand-written adjoint: f_vjp is checked against finite differences of the original.
// Usage: omp_softmax_bench [N [REPS]]. Problem: N logits.
#include "harness.h"

double softmax_xent_seq(int n, const double *z, int label, double *p);
double softmax_xent(int n, const double *z, int label, double *p);
double softmax_xent_vjp(int n, const double *z, double *z_bar, int label, double *p,
                        double *p_bar, double ret_bar);
double softmax_xent_jvp(int n, const double *z, const double *z_dot, int label, double *p,
                        double *p_dot, double *ret_dot);

static int n;
static double *z, *p, *ps, *zb, *pb;

static double run_seq(void) { return softmax_xent_seq(n, z, n / 3, ps); }
static double run_primal(void) { return softmax_xent(n, z, n / 3, p); }
static double run_vjp(void) {
  memset(pb, 0, sizeof *pb * (size_t)n);
  return softmax_xent_vjp(n, z, zb, n / 3, p, pb, 1.0);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "omp_softmax", argc, argv);
  n = b.n;
  z = bench_alloc(&b), p = bench_alloc(&b), ps = bench_alloc(&b), zb = bench_alloc(&b);
  pb = bench_alloc(&b);
  bench_fill(z, n, 5, -3.0, 3.0);
  printf("# omp_softmax: %d logits (examples/openmp/softmax/softmax.c)\n", n);
  fflush(stdout);
  double r = run_seq();
  bench_check_scalar(&b, "primal vs the original OpenMP", run_primal(), r, 1e-9);
  bench_check_array(&b, "primal p vs the original OpenMP", p, ps, n, 1e-9);
  memset(zb, 0, sizeof *zb * (size_t)n);
  bench_check_scalar(&b, "vjp result vs the original OpenMP", run_vjp(), r, 1e-9);
  int at[3] = {0, n / 3, n - 1};
  for (int k = 0; k < 3; k++) {
    double v = z[at[k]], h = 1e-5;
    z[at[k]] = v + h; double fp = run_seq();
    z[at[k]] = v - h; double fm = run_seq();
    z[at[k]] = v;
    bench_check_vjp_fd(&b, "d/dz (finite difference)", zb[at[k]], fp, fm, h);
  }
  double *zd = bench_alloc(&b), *pd = bench_alloc(&b), dot = 0.0;
  bench_fill(zd, n, 6, -1.0, 1.0);
  softmax_xent_jvp(n, z, zd, n / 3, p, pd, &dot);
  bench_check_scalar(&b, "jvp tangent vs <vjp adjoints, tangents>", dot,
                     bench_inner(zb, zd, NULL, NULL, n), 1e-8);
  free(zd), free(pd);
  memset(zb, 0, sizeof *zb * (size_t)n);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);
  free(z), free(p), free(ps), free(zb), free(pb);
  return b.warnings ? 3 : 0;
}
