// selftest: expect FAIL safelog n=1 seed=0: vjp x_bar
/* Broken: multiplies the untaken side's derivative by 0, which gives NaN at x == 0. */
#include <math.h>

void branches(int n, const double *x, double *y, double *z) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    y[i] = x[i] > 0 ? x[i] * x[i] : -x[i];
    double t = x[i] < 0.5 ? sin(x[i]) : 3.0 * x[i];
    z[i] = t * y[i];
  }
}

void branches_vjp(int n, const double *x, double *x_bar, double *y, double *y_bar, double *z,
                  double *z_bar) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double xi = x[i], yv = xi > 0 ? xi * xi : -xi, dy = xi > 0 ? 2 * xi : -1.0;
    double t = xi < 0.5 ? sin(xi) : 3.0 * xi, dt = xi < 0.5 ? cos(xi) : 3.0;
    y[i] = yv;
    z[i] = t * yv;
    double zb = z_bar[i], yb = y_bar[i] + zb * t, tb = zb * yv;
    x_bar[i] += yb * dy + tb * dt;
    y_bar[i] = 0.0;
    z_bar[i] = 0.0;
  }
}

void branches_jvp(int n, const double *x, const double *x_dot, double *y, double *y_dot,
                  double *z, double *z_dot) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double xi = x[i], yv = xi > 0 ? xi * xi : -xi, dy = xi > 0 ? 2 * xi : -1.0;
    double t = xi < 0.5 ? sin(xi) : 3.0 * xi, dt = xi < 0.5 ? cos(xi) : 3.0;
    y[i] = yv;
    z[i] = t * yv;
    y_dot[i] = dy * x_dot[i];
    z_dot[i] = dt * x_dot[i] * yv + t * y_dot[i];
  }
}

void safelog(int n, const double *x, double *y, double *z) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    y[i] = x[i] > 0 ? log(x[i]) : 0.0;
    z[i] = x[i] > 0.0 ? sqrt(x[i]) : 0.0;
  }
}

void safelog_vjp(int n, const double *x, double *x_bar, double *y, double *y_bar, double *z,
                 double *z_bar) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double xi = x[i];
    y[i] = xi > 0 ? log(xi) : 0.0;
    z[i] = xi > 0.0 ? sqrt(xi) : 0.0;
    double g = (xi > 0) * (y_bar[i] / xi + z_bar[i] * 0.5 / sqrt(xi));
    x_bar[i] += g;
    y_bar[i] = 0.0;
    z_bar[i] = 0.0;
  }
}

void safelog_jvp(int n, const double *x, const double *x_dot, double *y, double *y_dot, double *z,
                 double *z_dot) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double xi = x[i];
    y[i] = xi > 0 ? log(xi) : 0.0;
    z[i] = xi > 0.0 ? sqrt(xi) : 0.0;
    y_dot[i] = xi > 0 ? x_dot[i] / xi : 0.0;
    z_dot[i] = xi > 0 ? 0.5 * x_dot[i] / sqrt(xi) : 0.0;
  }
}
