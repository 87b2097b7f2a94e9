// Hand-written OpenMP adjoint of dot (bench/dot.c): what a careful programmer
// writes by hand. Same signature and semantics as adsoac's dot_vjp
// (language.md §2.1): returns the primal, accumulates x_bar += ret_bar*y and
// y_bar += ret_bar*x. The gradient does not depend on s, so one fused pass.

double dot_hand(int n, const double *restrict x, double *restrict x_bar,
                const double *restrict y, double *restrict y_bar,
                double ret_bar) {
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++) {
    s += x[i] * y[i];
    x_bar[i] += ret_bar * y[i];
    y_bar[i] += ret_bar * x[i];
  }
  return s;
}
