// Hand-made stand-in for `adsoac --target=c bench/iir.c -o iir_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline without
// the translator. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output for a scan with a declared operator (affine maps): a
// forward sweep that stores the exclusive prefixes (their .b, y_{i-1}; .a gets no
// adjoint, the loss never reads it), the loop body as a map over them (with its own
// adjoint), and in reverse the scan's adjoint through its step Jacobians
// (Y_i = yb_i + a[i+1] Y_{i+1}, a reverse scan of affine maps). The scans run
// sequentially here (the stand-in checks the pipeline, not speed); the maps are
// parallel.
#include <stdlib.h>

// yp[i] = y_{i-1}, with y_i = a[i] y_{i-1} + b[i], y_{-1} = 0 (caller frees).
static double *prefix_y(int n, const double *restrict a, const double *restrict b) {
  double *yp = malloc((size_t)(n > 0 ? n : 1) * sizeof *yp);
  double y = 0.0;
  for (int i = 0; i < n; i++) {
    yp[i] = y;
    y = a[i] * y + b[i];
  }
  return yp;
}

double iir(int n, const double *restrict a, const double *restrict b,
           const double *restrict w) {
  double *yp = prefix_y(n, a, b), s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += w[i] * (a[i] * yp[i] + b[i]);
  free(yp);
  return s;
}

double iir_vjp(int n, const double *restrict a, double *restrict a_bar,
               const double *restrict b, double *restrict b_bar,
               const double *restrict w, double *restrict w_bar, double ret_bar) {
  double *yp = prefix_y(n, a, b), s = 0.0;  // forward sweep
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++) {             // body: s += w y_i, and its adjoint
    double y = a[i] * yp[i] + b[i];
    s += w[i] * y;
    w_bar[i] += ret_bar * y;
  }
  // Y_i = ret_bar w[i] + a[i+1] Y_{i+1}: b_bar[i] += Y_i, a_bar[i] += Y_i y_{i-1}.
  double Y = 0.0, anext = 0.0;  // Y_{i+1}, a[i+1]
  for (int i = n - 1; i >= 0; i--) {
    Y = ret_bar * w[i] + anext * Y;
    b_bar[i] += Y;
    a_bar[i] += Y * yp[i];
    anext = a[i];
  }
  free(yp);
  return s;
}

double iir_jvp(int n, const double *restrict a, const double *restrict a_dot,
               const double *restrict b, const double *restrict b_dot,
               const double *restrict w, const double *restrict w_dot,
               double *ret_dot) {
  double *yp = prefix_y(n, a, b), s = 0.0, s_dot = 0.0;
  double *yp_dot = malloc((size_t)(n > 0 ? n : 1) * sizeof *yp_dot);
  double y_dot = 0.0;  // the scan of dual numbers
  for (int i = 0; i < n; i++) {
    yp_dot[i] = y_dot;
    y_dot = a_dot[i] * yp[i] + a[i] * y_dot + b_dot[i];
  }
#pragma omp parallel for schedule(static) reduction(+: s, s_dot)
  for (int i = 0; i < n; i++) {
    double y = a[i] * yp[i] + b[i];
    double yd = a_dot[i] * yp[i] + a[i] * yp_dot[i] + b_dot[i];
    s += w[i] * y;
    s_dot += w_dot[i] * y + w[i] * yd;
  }
  free(yp);
  free(yp_dot);
  *ret_dot = s_dot;
  return s;
}
