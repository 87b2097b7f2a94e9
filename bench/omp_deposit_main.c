// Timing driver for the omp_deposit benchmark: examples/openmp/deposit/deposit.c as it is (an
// OpenMP kernel with `omp atomic`, `#pragma adsoac grad` added). Links three objects:
//   deposit_seq                        deposit.c compiled by cc directly WITH -fopenmp: the
//                                      original OpenMP code (the seq-C column of this row)
//   deposit, deposit_vjp, deposit_jvp  adsoac's translation
// No hand-written adjoint: f_vjp is checked against finite differences of the original.
// Usage: omp_deposit_bench [N [REPS]]. Problem: N particles on the file's 64 cells.
#include "harness.h"

#define NCELL 64
double deposit_seq(int np, const double *x, const double *q, double rho[NCELL]);
double deposit(int np, const double *x, const double *q, double rho[NCELL]);
double deposit_vjp(int np, const double *x, double *x_bar, const double *q, double *q_bar,
                   double rho[NCELL], double rho_bar[NCELL], double ret_bar);
double deposit_jvp(int np, const double *x, const double *x_dot, const double *q,
                   const double *q_dot, double rho[NCELL], double rho_dot[NCELL],
                   double *ret_dot);

static int n;
static double *x, *q, *xb, *qb, rho[NCELL], rho0[NCELL], rb[NCELL];

static double run_seq(void) { memcpy(rho, rho0, sizeof rho); return deposit_seq(n, x, q, rho); }
static double run_primal(void) { memcpy(rho, rho0, sizeof rho); return deposit(n, x, q, rho); }
static double run_vjp(void) {
  memcpy(rho, rho0, sizeof rho);
  memset(rb, 0, sizeof rb);
  return deposit_vjp(n, x, xb, q, qb, rho, rb, 1.0);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "omp_deposit", argc, argv);
  n = b.n;
  x = bench_alloc(&b), q = bench_alloc(&b), xb = bench_alloc(&b), qb = bench_alloc(&b);
  bench_fill(x, n, 7, 0.0, 1.0);
  bench_fill(q, n, 8, 0.5, 1.5);
  memset(rho0, 0, sizeof rho0);
  printf("# omp_deposit: %d particles, %d cells (examples/openmp/deposit/deposit.c)\n", n, NCELL);
  fflush(stdout);
  int timed = n;
  n = n < 5000 ? n : 5000; // (checks on the first 5000: the original's atomic sums over
                           // millions of particles round differently from run to run)
  double r = run_seq(), rs[NCELL];
  memcpy(rs, rho, sizeof rs);
  bench_check_scalar(&b, "primal vs the original OpenMP", run_primal(), r, 1e-9);
  bench_check_array(&b, "primal rho vs the original OpenMP", rho, rs, NCELL, 1e-9);
  memset(xb, 0, sizeof *xb * (size_t)n);
  memset(qb, 0, sizeof *qb * (size_t)n);
  bench_check_scalar(&b, "vjp result vs the original OpenMP", run_vjp(), r, 1e-9);
  int at[3] = {0, n / 2, n - 1};
  for (int k = 0; k < 3; k++) { // (q: the energy is quadratic in the charges)
    double v = q[at[k]], h = 1e-3;
    q[at[k]] = v + h; double fp = run_seq();
    q[at[k]] = v - h; double fm = run_seq();
    q[at[k]] = v;
    bench_check_vjp_fd(&b, "d/dq (finite difference)", qb[at[k]], fp, fm, h);
  }
  double *xd = bench_alloc(&b), *qd = bench_alloc(&b), rd[NCELL] = {0}, dot = 0.0;
  bench_fill(xd, n, 9, -1.0, 1.0);
  bench_fill(qd, n, 10, -1.0, 1.0);
  memcpy(rho, rho0, sizeof rho);
  deposit_jvp(n, x, xd, q, qd, rho, rd, &dot);
  bench_check_scalar(&b, "jvp tangent vs <vjp adjoints, tangents>", dot,
                     bench_inner(xb, xd, qb, qd, n), 1e-8);
  free(xd), free(qd);
  n = timed;
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);
  free(x), free(q), free(xb), free(qb);
  return b.warnings ? 3 : 0;
}
