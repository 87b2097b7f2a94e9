// selftest: expect FAIL saxpy n=0 seed=0: vjp y_bar
/* Broken: also zeroes y_bar[n], y_bar[n+1], which saxpy never touches. */
void saxpy(int n, double a, double b, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + b;
}

void saxpy_vjp(int n, double a, double *a_bar, double b, double *b_bar, const double *x,
               double *x_bar, double *y, double *y_bar) {
  double ga = 0.0, gb = 0.0;
#pragma omp parallel for reduction(+ : ga, gb)
  for (int i = 0; i < n; i++) {
    double yb = y_bar[i];
    y[i] = a * x[i] + b;
    ga += yb * x[i];
    gb += yb;
    x_bar[i] += a * yb;
    y_bar[i] = 0.0; /* SEED */
  }
  y_bar[n] = y_bar[n + 1] = 0.0;
  *a_bar += ga;
  *b_bar += gb;
}

void saxpy_jvp(int n, double a, double a_dot, double b, double b_dot, const double *x,
               const double *x_dot, double *y, double *y_dot) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    y[i] = a * x[i] + b;
    y_dot[i] = a_dot * x[i] + a * x_dot[i] + b_dot;
  }
}
