// examples/dot_main.c: calls the generated dot, dot_vjp, dot_jvp and prints the gradient
// next to central finite differences of the original function (linked as dot_original).
#include <math.h>
#include <stdio.h>

double dot(int n, const double *x, const double *y);
double dot_vjp(int n, const double *x, double *x_bar, const double *y, double *y_bar,
               double ret_bar);
double dot_jvp(int n, const double *x, const double *x_dot, const double *y,
               const double *y_dot, double *ret_dot);
double dot_original(int n, const double *x, const double *y);

int main(void) {
  enum { N = 5 };
  double x[N], y[N], x_bar[N] = {0}, y_bar[N] = {0}, x_dot[N], y_dot[N] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + i;
    y[i] = sin(1.0 + i);
    x_dot[i] = i == 2; // tangent direction: e_2
  }
  printf("primal: dot = %.12f (original: %.12f)\n", dot(N, x, y), dot_original(N, x, y));
  dot_vjp(N, x, x_bar, y, y_bar, 1.0);
  double worst = 0;
  printf("  i   d/dx[i] (vjp)    finite difference\n");
  for (int i = 0; i < N; i++) {
    double h = 1e-6, xi = x[i];
    x[i] = xi + h;
    double fp = dot_original(N, x, y);
    x[i] = xi - h;
    double fm = dot_original(N, x, y);
    x[i] = xi;
    double fd = (fp - fm) / (2 * h);
    printf("%3d   %14.9f   %14.9f\n", i, x_bar[i], fd);
    if (fabs(x_bar[i] - fd) > worst) worst = fabs(x_bar[i] - fd);
  }
  double t;
  dot_jvp(N, x, x_dot, y, y_dot, &t);
  printf("forward mode: d dot / d x[2] = %.9f (vjp: %.9f)\n", t, x_bar[2]);
  int ok = worst < 1e-6 && fabs(t - x_bar[2]) < 1e-12;
  printf("%s\n", ok ? "gradient check: ok" : "gradient check: FAILED");
  return ok ? 0 : 1;
}
