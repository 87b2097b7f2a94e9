// Timing driver for bench/mapwrite.c. Links four objects:
//   fit_seq          bench/mapwrite.c compiled by cc directly (-Dfit=fit_seq, no OpenMP)
//   fit, fit_vjp, fit_jvp   adsoac's translation (or a --fake stand-in)
//   fit_hand         bench/mapwrite_hand.c
// Usage: mapwrite_bench [N [REPS]]. Prints one table row; warnings go to stderr.
// fit writes y (an active output): f_vjp takes its seed y_bar and consumes it
// (on exit y_bar holds the adjoint of y's initial contents, 0 here since fit
// overwrites y without reading it); f_jvp returns y's tangent in y_dot.
#include "harness.h"

double fit_seq(int n, double a, double b, const double *x, const double *t,
               double *y);
double fit(int n, double a, double b, const double *x, const double *t,
           double *y);
double fit_vjp(int n, double a, double *a_bar, double b, double *b_bar,
               const double *x, double *x_bar, const double *t, double *t_bar,
               double *y, double *y_bar, double ret_bar);
double fit_jvp(int n, double a, double a_dot, double b, double b_dot,
               const double *x, const double *x_dot, const double *t,
               const double *t_dot, double *y, double *y_dot, double *ret_dot);
double fit_hand(int n, double a, double *a_bar, double b, double *b_bar,
                const double *x, double *x_bar, const double *t, double *t_bar,
                double *y, double *y_bar, double ret_bar);

static void set(double *p, int n, double v) {
  for (int i = 0; i < n; i++) p[i] = v;
}

int main(int argc, char **argv) {
  Bench bn;
  bench_args(&bn, "mapwrite", argc, argv);
  Bench *B = &bn;
  int n = bn.n;
  const double a = 0.75, b = 0.25;
  size_t bytes = (size_t)n * sizeof(double);
  double *x = bench_alloc(B), *t = bench_alloc(B);
  double *ys = bench_alloc(B), *y = bench_alloc(B), *yh = bench_alloc(B);
  double *xb = bench_alloc(B), *tb = bench_alloc(B), *yb = bench_alloc(B);
  double *xh = bench_alloc(B), *th = bench_alloc(B), *ybh = bench_alloc(B);
  double *w = bench_alloc(B);
  bench_fill(x, n, 21, -1.0, 1.0);
  bench_fill(t, n, 22, -0.5, 0.5);
  bench_fill(w, n, 23, -1.0, 1.0);  // the seed of y (y_bar on entry)

  // ---- checks (once, before timing) ----
  // y is filled with garbage before every call: each variant must write all of it.
  const double seed = 1.5;  // not 1: a dropped seed must show
  set(ys, n, -7.0);
  double r_seq = fit_seq(n, a, b, x, t, ys);
  set(y, n, -7.0);
  bench_check_scalar(B, "primal fit vs sequential C", fit(n, a, b, x, t, y), r_seq, BENCH_RTOL);
  bench_check_array(B, "primal fit y vs sequential C", y, ys, n, BENCH_RTOL);

  // 1. f_vjp vs hand. Non-zero initial adjoints of the read-only parameters
  // (accumulate, not overwrite) and a non-zero seed y_bar = w of the output y.
  double ab = 0.125, ah = 0.125, bb = -0.375, bh = -0.375;
  bench_fill(xb, n, 24, -1.0, 1.0); memcpy(xh, xb, bytes);
  bench_fill(tb, n, 25, -1.0, 1.0); memcpy(th, tb, bytes);
  memcpy(yb, w, bytes); memcpy(ybh, w, bytes);
  set(y, n, -7.0); set(yh, n, -7.0);
  double r_vjp = fit_vjp(n, a, &ab, b, &bb, x, xb, t, tb, y, yb, seed);
  double r_hand = fit_hand(n, a, &ah, b, &bh, x, xh, t, th, yh, ybh, seed);
  bench_check_scalar(B, "fit_vjp result vs sequential C", r_vjp, r_seq, BENCH_RTOL);
  bench_check_scalar(B, "hand result vs sequential C", r_hand, r_seq, BENCH_RTOL);
  bench_check_array(B, "fit_vjp y vs sequential C", y, ys, n, BENCH_RTOL);
  bench_check_array(B, "hand y vs sequential C", yh, ys, n, BENCH_RTOL);
  bench_check_scalar(B, "fit_vjp a_bar vs hand", ab, ah, BENCH_RTOL);
  bench_check_scalar(B, "fit_vjp b_bar vs hand", bb, bh, BENCH_RTOL);
  bench_check_array(B, "fit_vjp x_bar vs hand", xb, xh, n, BENCH_RTOL);
  bench_check_array(B, "fit_vjp t_bar vs hand", tb, th, n, BENCH_RTOL);
  // y_bar on exit: the adjoint of y's initial contents, all 0 (exact).
  bench_check_array(B, "fit_vjp y_bar on exit vs hand", yb, ybh, n, BENCH_RTOL);

  // 2. Reference sanity: the hand gradient (zero-initialised, ret_bar = 1,
  // y_bar = w) against central finite differences of the sequential original
  // of L = fit_seq(...) + <w, y>. tanh makes L non-quadratic, so the step is
  // small (truncation ~ h^2). With bench_check_fd's floor 1 the rounding error
  // eps*|L|/h must stay well under 1e-6 * |g|: fine for a and b (L and g both
  // grow like n), not for one element of a sum of n = 10^7 terms (|L| ~ 10^6,
  // g ~ 1). fit is a sum of independent per-element terms (y[k] depends on
  // x[k], t[k] only), so the element derivatives are taken of fit_seq on a
  // window of WIN elements around k: the same derivative, with |L| ~ 1.
  ah = 0.0; bh = 0.0;
  memset(xh, 0, bytes); memset(th, 0, bytes); memcpy(ybh, w, bytes);
  fit_hand(n, a, &ah, b, &bh, x, xh, t, th, yh, ybh, 1.0);
  const double h = 1e-4;
  double fp, fm;
  fp = fit_seq(n, a + h, b, x, t, ys); fp += bench_inner(w, ys, NULL, NULL, n);
  fm = fit_seq(n, a - h, b, x, t, ys); fm += bench_inner(w, ys, NULL, NULL, n);
  bench_check_fd(B, "d/da (finite difference)", ah, fp, fm, h);
  fp = fit_seq(n, a, b + h, x, t, ys); fp += bench_inner(w, ys, NULL, NULL, n);
  fm = fit_seq(n, a, b - h, x, t, ys); fm += bench_inner(w, ys, NULL, NULL, n);
  bench_check_fd(B, "d/db (finite difference)", bh, fp, fm, h);
  enum { WIN = 8 };
  double yw[WIN];
  int m = n < WIN ? n : WIN;
  int idx[3] = {0, n / 2, n - 1};
  for (int j = 0; j < 3; j++) {
    int k = idx[j];
    int k0 = k - m / 2;
    if (k0 < 0) k0 = 0;
    if (k0 > n - m) k0 = n - m;
    double *p[2] = {x, t}, *g[2] = {xh, th};
    const char *what[2] = {"d/dx (finite difference)", "d/dt (finite difference)"};
    for (int q = 0; q < 2; q++) {
      double v = p[q][k];
      p[q][k] = v + h;
      fp = fit_seq(m, a, b, x + k0, t + k0, yw) + bench_inner(w + k0, yw, NULL, NULL, m);
      p[q][k] = v - h;
      fm = fit_seq(m, a, b, x + k0, t + k0, yw) + bench_inner(w + k0, yw, NULL, NULL, m);
      p[q][k] = v;
      bench_check_fd(B, what[q], g[q][k], fp, fm, h);
    }
  }

  // 3. f_jvp with tangents (a_dot, b_dot, xd, td): y_dot must hold y's tangent
  // and ret_dot + <w, y_dot> must equal <hand gradient (ret_bar = 1, y_bar = w),
  // tangent> (the adjoint identity). Also with the y seed 0: ret_dot alone
  // against <hand gradient of fit, tangent>.
  const double a_dot = 0.5, b_dot = -0.25;
  double *xd = xb, *td = tb, *yd = yb;  // reuse: the vjp arrays are checked
  bench_fill(xd, n, 26, 0.0, 1.0);
  bench_fill(td, n, 27, 0.0, 1.0);
  set(y, n, -7.0); set(yd, n, -7.0);
  double ret_dot = 0.0;
  double r_jvp = fit_jvp(n, a, a_dot, b, b_dot, x, xd, t, td, y, yd, &ret_dot);
  set(ys, n, -7.0);
  fit_seq(n, a, b, x, t, ys);
  bench_check_scalar(B, "fit_jvp result vs sequential C", r_jvp, r_seq, BENCH_RTOL);
  bench_check_array(B, "fit_jvp y vs sequential C", y, ys, n, BENCH_RTOL);
  // y_dot reference: (1 - y^2) * (a_dot*x + a*x_dot + b_dot), in ybh.
  for (int i = 0; i < n; i++)
    ybh[i] = (1.0 - ys[i] * ys[i]) * (a_dot * x[i] + a * xd[i] + b_dot);
  bench_check_array(B, "fit_jvp y_dot vs (1 - y^2) * (a*x + b)_dot", yd, ybh, n, BENCH_RTOL);
  bench_check_scalar(B, "fit_jvp ret_dot + <w, y_dot> vs <hand gradient, tangent>",
                     ret_dot + bench_inner(w, yd, NULL, NULL, n),
                     ah * a_dot + bh * b_dot + bench_inner(xh, xd, th, td, n), BENCH_RTOL);
  ah = 0.0; bh = 0.0;
  memset(xh, 0, bytes); memset(th, 0, bytes); memset(ybh, 0, bytes);
  fit_hand(n, a, &ah, b, &bh, x, xh, t, th, yh, ybh, 1.0);
  bench_check_scalar(B, "fit_jvp ret_dot vs <hand gradient of fit, tangent>", ret_dot,
                     ah * a_dot + bh * b_dot + bench_inner(xh, xd, th, td, n), BENCH_RTOL);

  // ---- timing ----
  // Nothing is re-initialised: the adjoints accumulate and y_bar is consumed
  // (0 after the first call), which changes no work done per call.
  double t_seq, t_pri, t_vjp, t_hand;
  BENCH_TIME(B, t_seq, fit_seq(n, a, b, x, t, ys));
  BENCH_TIME(B, t_pri, fit(n, a, b, x, t, y));
  BENCH_TIME(B, t_vjp, fit_vjp(n, a, &ab, b, &bb, x, xb, t, tb, y, yb, 1.0));
  BENCH_TIME(B, t_hand, fit_hand(n, a, &ah, b, &bh, x, xb, t, tb, y, yb, 1.0));
  bench_row(B, t_seq, t_pri, t_vjp, t_hand);

  free(x); free(t); free(ys); free(y); free(yh); free(xb); free(tb); free(yb);
  free(xh); free(th); free(ybh); free(w);
  return bn.warnings ? 3 : 0;
}
