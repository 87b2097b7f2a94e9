// DELIBERATELY WRONG: the scan's adjoint pairs Q_{i+1} with the inclusive prefix p_i = q_i x[i] instead of the exclusive q_i (see bench/README.md).
// Hand-made stand-in for `adsoac --target=c bench/scanmul.c -o scanmul_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline without
// the translator. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output for a scan with *: a forward sweep that stores the
// exclusive prefixes q_i = c x[0] ... x[i-1], the loop body as a map over them
// (with its own adjoint), and in reverse the scan's adjoint through its step
// Jacobians (Q_i = qb_i + x[i] Q_{i+1}, a reverse scan of affine maps; no division,
// so exact with zeros). The scans run sequentially here (the stand-in checks the
// pipeline, not speed); the maps are parallel.
#include <stdlib.h>

// q[i] = c x[0] ... x[i-1], the exclusive prefix products (caller frees).
static double *prefix_prod(int n, double c, const double *restrict x) {
  double *q = malloc((size_t)(n > 0 ? n : 1) * sizeof *q);
  double acc = c;
  for (int i = 0; i < n; i++) {
    q[i] = acc;
    acc *= x[i];
  }
  return q;
}

double cumprod(int n, double c, const double *restrict x, const double *restrict w) {
  double *q = prefix_prod(n, c, x), s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += w[i] * (q[i] * x[i]);
  free(q);
  return s;
}

double cumprod_vjp(int n, double c, double *c_bar, const double *restrict x,
                   double *restrict x_bar, const double *restrict w,
                   double *restrict w_bar, double ret_bar) {
  double *q = prefix_prod(n, c, x), s = 0.0;  // forward sweep
  double *qb = malloc((size_t)(n > 0 ? n : 1) * sizeof *qb);
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++) {               // body p = q x[i]; s += w p, and its adjoint
    double p = q[i] * x[i], p_bar = ret_bar * w[i];
    s += w[i] * p;
    w_bar[i] += ret_bar * p;
    x_bar[i] += p_bar * q[i];
    qb[i] = p_bar * x[i];
  }
  // q_{i+1} = q_i x[i], q_0 = c: Q_i = qb_i + x[i] Q_{i+1} (the total adjoint of q_i),
  // x_bar[i] += Q_{i+1} q_i, c_bar += Q_0.
  double Q = 0.0;  // Q_{i+1}
  for (int i = n - 1; i >= 0; i--) {
    x_bar[i] += Q * (q[i] * x[i]);  // wrong: inclusive prefix p_i instead of q_i
    Q = qb[i] + x[i] * Q;
  }
  *c_bar += Q;
  free(q);
  free(qb);
  return s;
}

double cumprod_jvp(int n, double c, double c_dot, const double *restrict x,
                   const double *restrict x_dot, const double *restrict w,
                   const double *restrict w_dot, double *ret_dot) {
  double *q = prefix_prod(n, c, x), s = 0.0, s_dot = 0.0;
  double *q_dot = malloc((size_t)(n > 0 ? n : 1) * sizeof *q_dot);
  double acc_dot = c_dot;  // the scan of dual numbers (q, q_dot)
  for (int i = 0; i < n; i++) {
    q_dot[i] = acc_dot;
    acc_dot = acc_dot * x[i] + q[i] * x_dot[i];
  }
#pragma omp parallel for schedule(static) reduction(+: s, s_dot)
  for (int i = 0; i < n; i++) {
    double p = q[i] * x[i], p_dot = q_dot[i] * x[i] + q[i] * x_dot[i];
    s += w[i] * p;
    s_dot += w_dot[i] * p + w[i] * p_dot;
  }
  free(q);
  free(q_dot);
  *ret_dot = s_dot;
  return s;
}
