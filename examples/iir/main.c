// examples/iir/main.c: calls the generated iir_vjp on a deterministic test signal and
// prints, for a few entries of each active input (y0, a, x), the adjoint next to a central
// finite difference of the generated primal iir; then checks iir_jvp along one direction
// against the vjp (the two modes must agree: <gradient, direction> = jvp).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adsoac.h"

// the functions adsoac generates from iir.c (language.md §2.1, §2.2)
double iir(int n, double y0, const double *a, const double *x, const double *target,
           double *y);
double iir_vjp(int n, double y0, double *y0_bar, const double *a, double *a_bar,
               const double *x, double *x_bar, const double *target, double *y,
               double *y_bar, double ret_bar);
double iir_jvp(int n, double y0, double y0_dot, const double *a, const double *a_dot,
               const double *x, const double *x_dot, const double *target, double *y,
               double *y_dot, double *ret_dot);

enum { N = 400 };

static double y0v, a[N], x[N], target[N];

// the loss at the current inputs, through the generated primal (y is scratch output)
static double loss_now(void) {
  double y[N];
  return iir(N, y0v, a, x, target, y);
}

static double worst = 0.0;

// |g - ref| relative to |ref|, or to 0.01 where |ref| is smaller (near-zero derivatives)
static double relerr(double g, double ref) { return fabs(g - ref) / fmax(fabs(ref), 1e-2); }

// central difference of the loss in *p, printed beside the adjoint g
static void check(const char *name, int idx, double *p, double g) {
  const double h = 1e-5, p0 = *p;
  *p = p0 + h;
  double fp = loss_now();
  *p = p0 - h;
  double fm = loss_now();
  *p = p0;
  double fd = (fp - fm) / (2 * h), err = relerr(g, fd);
  if (err > worst) worst = err;
  printf("  %-3s %5d  %17.10f  %17.10f  %9.2e\n", name, idx, g, fd, err);
}

int main(void) {
  y0v = 0.25;
  for (int i = 0; i < N; i++) {
    double t = 0.05 * i;
    x[i] = sin(t) + 0.3 * sin(1.7 * i + 0.3);             // a slow wave plus "noise"
    target[i] = sin(t - 0.15);                             // the clean, slightly delayed wave
    a[i] = 0.55 + 0.35 * sin(0.013 * i) * sin(0.013 * i); // a slowly varying pole in [0.55, 0.9]
  }

  double y[N], y_bar[N], a_bar[N] = {0}, x_bar[N] = {0}, y0_bar = 0.0;
  memset(y_bar, 0, sizeof y_bar); // seed only the loss: L = 1 * loss
  double loss = iir_vjp(N, y0v, &y0_bar, a, a_bar, x, x_bar, target, y, y_bar, 1.0);
  if (adsoac_last_error()) {
    printf("error: %s\n", adsoac_last_error());
    return 1;
  }
  printf("iir: n = %d, loss = %.12f (primal iir: %.12f), y[n-1] = %.9f\n", N, loss, loss_now(),
         y[N - 1]);

  printf("  in  index   d loss (vjp)       finite difference  rel.err\n");
  check("y0", 0, &y0v, y0_bar);
  const int idx[] = {0, 1, 57, N / 2, N - 2, N - 1};
  for (unsigned k = 0; k < sizeof idx / sizeof idx[0]; k++) {
    int i = idx[k];
    check("a", i, &a[i], a_bar[i]);
  }
  for (unsigned k = 0; k < sizeof idx / sizeof idx[0]; k++) {
    int i = idx[k];
    check("x", i, &x[i], x_bar[i]);
  }

  // forward mode along one direction: jvp must equal <gradient, direction>
  double a_dot[N], x_dot[N], y_dot[N] = {0}, y0_dot = 0.5, ret_dot = 0.0;
  double dir = y0_bar * y0_dot;
  for (int i = 0; i < N; i++) {
    a_dot[i] = 0.1 * cos(0.3 * i);
    x_dot[i] = sin(0.7 * i + 1.0);
    dir += a_bar[i] * a_dot[i] + x_bar[i] * x_dot[i];
  }
  iir_jvp(N, y0v, y0_dot, a, a_dot, x, x_dot, target, y, y_dot, &ret_dot);
  if (adsoac_last_error()) {
    printf("error: %s\n", adsoac_last_error());
    return 1;
  }
  double jerr = relerr(ret_dot, dir);
  if (jerr > worst) worst = jerr;
  printf("forward mode: jvp = %.10f, <vjp, dir> = %.10f, rel.err %.2e\n", ret_dot, dir, jerr);

  int ok = worst < 1e-6;
  printf("worst relative error %.2e\n", worst);
  printf("%s\n", ok ? "gradient check: ok" : "gradient check: FAILED");
  return ok ? 0 : 1;
}
