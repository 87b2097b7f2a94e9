// tests/semantics/ties_main.c: the tie, zero and kink rules of language.md §7, exactly, in
// both modes (f_jvp must pick the candidate f_vjp picks).
#include <math.h>
#include <stdio.h>
#include <string.h>

double maxval_vjp(int n, double c, double *c_bar, const double *x, double *x_bar, double rb);
double maxval_jvp(int n, double c, double c_dot, const double *x, const double *x_dot, double *rd);
double minval_vjp(int n, double c, double *c_bar, const double *x, double *x_bar, double rb);
double minval_jvp(int n, double c, double c_dot, const double *x, const double *x_dot, double *rd);
double prodval_vjp(int n, double c, double *c_bar, const double *x, double *x_bar, double rb);
double prodval_jvp(int n, double c, double c_dot, const double *x, const double *x_dot, double *rd);
double runmax_vjp(int n, double c, double *c_bar, const double *x, double *x_bar, double rb);
double runmax_jvp(int n, double c, double c_dot, const double *x, const double *x_dot, double *rd);
double runmin_vjp(int n, double c, double *c_bar, const double *x, double *x_bar, double rb);
double runmin_jvp(int n, double c, double c_dot, const double *x, const double *x_dot, double *rd);
double runprod_vjp(int n, double c, double *c_bar, const double *x, double *x_bar, double rb);
double runprod_jvp(int n, double c, double c_dot, const double *x, const double *x_dot, double *rd);
void hmax2_vjp(int n, const int *bin, const double *x, double *x_bar, double *h, double *h_bar);
void hmax2_jvp(int n, const int *bin, const double *x, const double *x_dot, double *h, double *h_dot);
void hprod4_vjp(int n, const int *bin, const double *x, double *x_bar, double *h, double *h_bar);
void hprod4_jvp(int n, const int *bin, const double *x, const double *x_dot, double *h, double *h_dot);

double fmaxpair_vjp(int n, const double *x, double *x_bar, const double *y, double *y_bar,
                    double rb);

static int failures, checks;

static void expect(const char *what, double got, double want) {
  checks++;
  if (got == want) return;
  failures++;
  printf("FAIL %s: got %.17g, expected %.17g\n", what, got, want);
}

typedef void HVjp(int, const int *, const double *, double *, double *, double *);
typedef void HJvp(int, const int *, const double *, const double *, double *, double *);

// A histogram h[0:nb] from h0 over (bin, x): f_vjp with the seeds hb must give want_x and
// want_h (the initial contents' adjoint); f_jvp along each x[i] and each h0[b] must agree.
static void check_hist(const char *name, HVjp *vjp, HJvp *jvp, int n, const int *bin,
                       const double *x, int nb, const double *h0, const double *hb,
                       const double *want_x, const double *want_h) {
  double h[8], h_bar[8], x_bar[16] = {0}, e[16], hd[8];
  char what[160];
  memcpy(h, h0, sizeof(double) * (size_t)nb);
  memcpy(h_bar, hb, sizeof(double) * (size_t)nb);
  vjp(n, bin, x, x_bar, h, h_bar);
  for (int i = 0; i < n; i++) {
    snprintf(what, sizeof what, "%s: x_bar[%d]", name, i);
    expect(what, x_bar[i], want_x[i]);
  }
  for (int b = 0; b < nb; b++) {
    snprintf(what, sizeof what, "%s: h_bar[%d] (initial contents)", name, b);
    expect(what, h_bar[b], want_h[b]);
  }
  for (int i = 0; i < n + nb; i++) { // <h_dot, hb> along each input
    memset(e, 0, sizeof e);
    memset(hd, 0, sizeof hd);
    if (i < n) e[i] = 1.0;
    else hd[i - n] = 1.0;
    memcpy(h, h0, sizeof(double) * (size_t)nb);
    jvp(n, bin, x, e, h, hd);
    double t = 0;
    for (int b = 0; b < nb; b++) t += hd[b] * hb[b];
    snprintf(what, sizeof what, "%s: jvp along %s[%d]", name, i < n ? "x" : "h", i < n ? i : i - n);
    expect(what, t, i < n ? want_x[i] : want_h[i - n]);
  }
}

typedef double VjpFn(int, double, double *, const double *, double *, double);
typedef double JvpFn(int, double, double, const double *, const double *, double *);

// vjp with seed 1 gives x_bar, c_bar; jvp with unit tangents must agree with them.
static void check(const char *name, VjpFn *vjp, JvpFn *jvp, int n, double c, const double *x,
                  double want_c, const double *want_x) {
  double x_bar[16] = {0}, c_bar = 0, e[16], t;
  char what[128];
  vjp(n, c, &c_bar, x, x_bar, 1.0);
  snprintf(what, sizeof what, "%s: c_bar", name);
  expect(what, c_bar, want_c);
  for (int i = 0; i < n; i++) {
    snprintf(what, sizeof what, "%s: x_bar[%d]", name, i);
    expect(what, x_bar[i], want_x[i]);
  }
  memset(e, 0, sizeof e);
  jvp(n, c, 1.0, x, e, &t);
  snprintf(what, sizeof what, "%s: jvp along c", name);
  expect(what, t, want_c);
  for (int i = 0; i < n; i++) {
    memset(e, 0, sizeof e);
    e[i] = 1.0;
    jvp(n, c, 0.0, x, e, &t);
    snprintf(what, sizeof what, "%s: jvp along x[%d]", name, i);
    expect(what, t, want_x[i]);
  }
}

int main(void) {
  double ties[6] = {0.1, 0.7, 0.3, 0.7, -2.0, 0.7};
  check("max, ties between elements: the earliest wins", maxval_vjp, maxval_jvp, 6, -5.0, ties,
        0.0, (double[]){0, 1, 0, 0, 0, 0});
  check("max, the initial value ties: it wins", maxval_vjp, maxval_jvp, 6, 0.7, ties, 1.0,
        (double[]){0, 0, 0, 0, 0, 0});
  check("max, the initial value is larger", maxval_vjp, maxval_jvp, 6, 3.0, ties, 1.0,
        (double[]){0, 0, 0, 0, 0, 0});
  check("max, n = 0", maxval_vjp, maxval_jvp, 0, 1.5, ties, 1.0, (double[]){0});
  double lows[5] = {0.5, -1.0, 2.0, -1.0, -1.0};
  check("min, ties: the earliest wins", minval_vjp, minval_jvp, 5, 9.0, lows, 0.0,
        (double[]){0, 1, 0, 0, 0});
  check("min, n = 1", minval_vjp, minval_jvp, 1, 9.0, lows, 0.0, (double[]){1});
  double none[4] = {2.0, 0.5, 4.0, -1.0}, one[4] = {2.0, 0.0, 4.0, -1.0},
         two[4] = {0.0, 0.5, 0.0, -1.0};
  check("*, no zero", prodval_vjp, prodval_jvp, 4, 3.0, none, -4.0,
        (double[]){-6.0, -24.0, -3.0, 12.0});
  check("*, one zero: only it gets the product of the others", prodval_vjp, prodval_jvp, 4, 3.0,
        one, 0.0, (double[]){0.0, -24.0, 0.0, 0.0});
  check("*, two zeros: all 0", prodval_vjp, prodval_jvp, 4, 3.0, two, 0.0,
        (double[]){0, 0, 0, 0});
  check("*, a zero initial value: it gets the product", prodval_vjp, prodval_jvp, 4, 0.0, none,
        -4.0, (double[]){0, 0, 0, 0});
  // scans: s = sum of (i + 1) * prefix_i
  check("scan max, ties: the earliest wins each prefix", runmax_vjp, runmax_jvp, 6, -5.0, ties,
        0.0, (double[]){1, 20, 0, 0, 0, 0});
  check("scan max, the initial value ties: it wins", runmax_vjp, runmax_jvp, 6, 0.7, ties, 21.0,
        (double[]){0, 0, 0, 0, 0, 0});
  check("scan max, n = 1", runmax_vjp, runmax_jvp, 1, -5.0, ties, 0.0, (double[]){1});
  check("scan max, n = 0", runmax_vjp, runmax_jvp, 0, 2.0, ties, 0.0, (double[]){0});
  double mins[6] = {0.5, -0.2, 0.3, -0.2, 1.0, -0.2};
  check("scan min, ties: the earliest wins each prefix", runmin_vjp, runmin_jvp, 6, 5.0, mins,
        0.0, (double[]){1, 20, 0, 0, 0, 0});
  check("scan min, the initial value ties: it wins", runmin_vjp, runmin_jvp, 6, -0.2, mins,
        21.0, (double[]){0, 0, 0, 0, 0, 0});
  double z1[4] = {2.0, 0.0, 3.0, 0.5}, z2[4] = {2.0, 0.0, 3.0, 0.0};
  check("scan *, one zero", runprod_vjp, runprod_jvp, 4, 1.5, z1, 2.0,
        (double[]){1.5, 51.0, 0.0, 0.0});
  check("scan *, two zeros", runprod_vjp, runprod_jvp, 4, 1.5, z2, 2.0,
        (double[]){1.5, 33.0, 0.0, 0.0});
  check("scan *, a zero initial value", runprod_vjp, runprod_jvp, 3, 0.0, none, 16.0,
        (double[]){0, 0, 0});
  // hist(max): bin 0's maximum 0.3 is attained by updates 0 and 2 (the earliest wins); bin 1's
  // initial 0.7 ties update 1 (the initial contents win); bins 5 and -1 are out of the section
  check_hist("hist max: ties, initial contents, skipped bins", hmax2_vjp, hmax2_jvp, 7,
             (int[]){0, 1, 0, 1, 0, 5, -1}, (double[]){0.3, 0.7, 0.3, 0.2, -1.0, 9.0, 9.0}, 2,
             (double[]){0.1, 0.7}, (double[]){1.0, 10.0}, (double[]){1, 0, 0, 0, 0, 0, 0},
             (double[]){0.0, 10.0});
  // hist(*): bins 0 and 1 have one zero update, bin 2 two zeros (its initial contents and an
  // update), bin 3 only its initial contents
  check_hist("hist *: zeros per bin", hprod4_vjp, hprod4_jvp, 9,
             (int[]){0, 0, 1, 1, 0, 2, 2, 3, 3}, (double[]){2, 0, 3, 0, 5, 4, 0, 2, 3}, 4,
             (double[]){1.5, 0.5, 0.0, 0.0}, (double[]){1, 10, 100, 1000},
             (double[]){0, 15, 0, 15, 0, 0, 0, 0, 0}, (double[]){0, 0, 0, 6000});
  // fmax(a, b) and fmin(a, b) with a == b: all to a; fabs at 0: 0
  double a[3] = {1.0, 0.0, -2.0}, b[3] = {1.0, 0.0, 3.0}, a_bar[3] = {0}, b_bar[3] = {0};
  fmaxpair_vjp(3, a, a_bar, b, b_bar, 1.0);
  expect("fmax+fmin tie: a", a_bar[0], 3.0); // fmax 1, fmin 1, fabs 1
  expect("fmax+fmin tie: b", b_bar[0], 0.0);
  expect("fabs at 0", a_bar[1], 2.0);        // fmax 1 + fmin 1 + fabs 0
  expect("no tie: a", a_bar[2], 1.0 - 1.0); // fmin picks a (1), fabs(-2) gives -1
  expect("no tie: b", b_bar[2], 1.0);
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
