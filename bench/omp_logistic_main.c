// Timing driver for the omp_logistic benchmark: examples/openmp/logistic/logistic.c as it is
// (an OpenMP kernel, `#pragma adsoac grad` added). Links three objects:
//   logistic_loss_seq                  logistic.c compiled by cc directly WITH -fopenmp: the
//                                      original OpenMP code (the seq-C column of this row)
//   logistic_loss, _vjp, _jvp          adsoac's translation
// No hand-written adjoint: f_vjp is checked against finite differences of the original.
// Usage: omp_logistic_bench [N [REPS]]. Problem: N/16 samples of d = 16 features.
#include "harness.h"

double logistic_loss_seq(int n, int d, const double *X, const int *y, const double *w,
                         double lambda);
double logistic_loss(int n, int d, const double *X, const int *y, const double *w,
                     double lambda);
double logistic_loss_vjp(int n, int d, const double *X, double *X_bar, const int *y,
                         const double *w, double *w_bar, double lambda, double *lambda_bar,
                         double ret_bar);
double logistic_loss_jvp(int n, int d, const double *X, const double *X_dot, const int *y,
                         const double *w, const double *w_dot, double lambda,
                         double lambda_dot, double *ret_dot);

enum { D = 16 };
static int n;
static double *X, *w, *Xb, *wb;
static int *y;

static double run_seq(void) { return logistic_loss_seq(n, D, X, y, w, 0.1); }
static double run_primal(void) { return logistic_loss(n, D, X, y, w, 0.1); }
static double run_vjp(void) {
  double lb = 0.0;
  return logistic_loss_vjp(n, D, X, Xb, y, w, wb, 0.1, &lb, 1.0);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "omp_logistic", argc, argv);
  n = b.n / D < 1 ? 1 : b.n / D;
  b.n = n;
  X = bench_dalloc(n * D), Xb = bench_dalloc(n * D), w = bench_dalloc(D), wb = bench_dalloc(D);
  y = malloc(sizeof *y * (size_t)n);
  bench_fill(X, n * D, 1, -1.0, 1.0);
  bench_fill(w, D, 2, -0.5, 0.5);
  for (int i = 0; i < n; i++) y[i] = (int)((unsigned)(i * 2654435761u) >> 31);
  printf("# omp_logistic: %d samples, %d features (examples/openmp/logistic/logistic.c)\n", n, D);
  fflush(stdout);
  // ---- checks ----
  double r = run_seq();
  bench_check_scalar(&b, "primal vs the original OpenMP", run_primal(), r, 1e-9);
  memset(Xb, 0, sizeof *Xb * (size_t)(n * D));
  memset(wb, 0, sizeof *wb * D);
  double lb = 0.0;
  bench_check_scalar(&b, "vjp result vs the original OpenMP",
                     logistic_loss_vjp(n, D, X, Xb, y, w, wb, 0.1, &lb, 1.0), r, 1e-9);
  for (int j = 0; j < D; j += 5) { // (w: a smooth function, step 1e-5)
    double v = w[j], h = 1e-5;
    w[j] = v + h; double fp = run_seq();
    w[j] = v - h; double fm = run_seq();
    w[j] = v;
    bench_check_vjp_fd(&b, "d/dw (finite difference)", wb[j], fp, fm, h);
  }
  double *Xd = bench_dalloc(n * D), *wd = bench_dalloc(D), dot = 0.0;
  bench_fill(Xd, n * D, 3, -1.0, 1.0);
  bench_fill(wd, D, 4, -1.0, 1.0);
  logistic_loss_jvp(n, D, X, Xd, y, w, wd, 0.1, 0.5, &dot);
  bench_check_scalar(&b, "jvp tangent vs <vjp adjoints, tangents>", dot,
                     bench_inner(Xb, Xd, wb, wd, D) + bench_inner(Xb + D, Xd + D, NULL, NULL, n * D - D) + 0.5 * lb, 1e-8);
  free(Xd), free(wd);
  // ---- timing ----
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);
  free(X), free(Xb), free(w), free(wb), free(y);
  return b.warnings ? 3 : 0;
}
