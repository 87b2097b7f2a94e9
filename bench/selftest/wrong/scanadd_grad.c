// DELIBERATELY WRONG: the reverse scan is exclusive where the element's own adjoint belongs, x_bar[k] gets sum_{i>k} instead of sum_{i>=k} (see bench/README.md).
// Hand-made stand-in for `adsoac --target=c bench/scanadd.c -o scanadd_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline without
// the translator. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output for a scan: a forward sweep that stores the exclusive
// prefixes, the loop body as a map over them (with its own adjoint), and in
// reverse a reverse exclusive scan of the prefixes' adjoints. The scans run
// sequentially here (the stand-in checks the pipeline, not speed); the maps are
// parallel.
#include <stdlib.h>

// a[i] = x[0] + ... + x[i-1], the exclusive prefix sums (caller frees).
static double *prefix_sum(int n, const double *restrict x) {
  double *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
  double acc = 0.0;
  for (int i = 0; i < n; i++) {
    a[i] = acc;
    acc += x[i];
  }
  return a;
}

double cumloss(int n, const double *restrict x, const double *restrict w) {
  double *a = prefix_sum(n, x), s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++) {
    double A = a[i] + x[i];
    s += w[i] * A * A;
  }
  free(a);
  return s;
}

double cumloss_vjp(int n, const double *restrict x, double *restrict x_bar,
                   const double *restrict w, double *restrict w_bar, double ret_bar) {
  double *a = prefix_sum(n, x), s = 0.0;  // forward sweep
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++) {           // body and its adjoint; a[i] becomes A_i's adjoint
    double A = a[i] + x[i];
    s += w[i] * A * A;
    w_bar[i] += ret_bar * A * A;
    a[i] = 2.0 * ret_bar * w[i] * A;
  }
  // A_i = a_i + x[i], a_i = sum_{k<i} x[k]: x_bar[k] += A_bar_k + sum_{i>k} A_bar_i,
  // the reverse exclusive scan r of the prefixes' adjoints plus the element's own.
  double r = 0.0;
  for (int i = n - 1; i >= 0; i--) {
    x_bar[i] += r;  // wrong: drops A_bar_i itself (exclusive instead of inclusive)
    r += a[i];
  }
  free(a);
  return s;
}

double cumloss_jvp(int n, const double *restrict x, const double *restrict x_dot,
                   const double *restrict w, const double *restrict w_dot,
                   double *ret_dot) {
  double *a = prefix_sum(n, x), *a_dot = prefix_sum(n, x_dot), s = 0.0, s_dot = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s, s_dot)
  for (int i = 0; i < n; i++) {
    double A = a[i] + x[i], A_dot = a_dot[i] + x_dot[i];
    s += w[i] * A * A;
    s_dot += w_dot[i] * A * A + 2.0 * w[i] * A * A_dot;
  }
  free(a);
  free(a_dot);
  *ret_dot = s_dot;
  return s;
}
