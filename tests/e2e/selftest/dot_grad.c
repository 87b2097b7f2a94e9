/* Hand-written translation of tests/e2e/dot.c (what adsoac --target=c should produce, in
 * substance): the harness must accept it. */
#include <stddef.h>

double dot(int n, const double *x, const double *y) {
  double s = 0.0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

double dot_vjp(int n, const double *x, double *x_bar, const double *y, double *y_bar,
               double ret_bar) {
  double s = dot(n, x, y);
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    x_bar[i] += ret_bar * y[i];
    y_bar[i] += ret_bar * x[i];
  }
  return s;
}

double dot_jvp(int n, const double *x, const double *x_dot, const double *y, const double *y_dot,
               double *ret_dot) {
  double s = 0.0, sd = 0.0;
#pragma omp parallel for reduction(+ : s, sd)
  for (int i = 0; i < n; i++) {
    s += x[i] * y[i];
    sd += x_dot[i] * y[i] + x[i] * y_dot[i];
  }
  *ret_dot = sd;
  return s;
}
