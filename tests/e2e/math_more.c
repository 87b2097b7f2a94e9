// The math functions of language.md §6 that math.c does not cover (lgamma tgamma cbrt hypot
// exp2 log2 log10 fma copysign erfc), in a map (one output column each, y[14*i + k], selected
// by branches as in math.c) and in a reduction, at their special points: lgamma and tgamma at
// negative non-integers and around lgamma's minimum (b near 1.46: digamma's root), cbrt of
// negatives, hypot at (0, 0) and copysign at 0 (kinks: derivative 0, between the one-sided
// differences), copysign with both signs of each argument.
// Inputs: a in (-1,1) (never near 0), b in (0.5,2), w zero at even i, else in (-1,1).
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1) fill(fabs(r) < 1e-3 ? 0.5 : r)
// e2e: array u[n] range(0.5,2)
// e2e: array w[n] range(-1,1) fill(i % 2 == 0 ? 0.0 : r)
// e2e: array y[14*n] range(-1,1)

#include <math.h>

#pragma adsoac grad
void mathmore(int n, const double *x, const double *u, const double *w, double *y) {
#pragma adsoac map
  for (int j = 0; j < 14 * n; j++) {
    int i = j / 14, k = j % 14;
    double a = x[i], b = u[i], z = w[i], v;
    if (k == 0) {
      v = lgamma(b);
    } else if (k == 1) {
      v = lgamma(0.4 * a - 1.5); // in (-1.9, -1.1): log|Gamma| of a negative
    } else if (k == 2) {
      v = tgamma(b + 0.3 * a);
    } else if (k == 3) {
      v = tgamma(0.4 * a - 0.5); // in (-0.9, -0.1): negative
    } else if (k == 4) {
      v = cbrt(3.0 * a + copysign(0.2, a)); // both signs, |argument| > 0.2
    } else if (k == 5) {
      v = hypot(a, b);
    } else if (k == 6) {
      v = hypot(z, 0.5 * z); // (0, 0) at even i
    } else if (k == 7) {
      v = exp2(a) + log2(b);
    } else if (k == 8) {
      v = log10(b);
    } else if (k == 9) {
      v = fma(a, b, 0.5 * a * b);
    } else if (k == 10) {
      v = copysign(a, b - 1.0); // b - 1 of both signs
    } else if (k == 11) {
      v = copysign(z, a); // at z = 0: the kink of |z|
    } else if (k == 12) {
      v = erfc(a);
    } else {
      v = tgamma(b) * lgamma(b + 1.0) + hypot(a, z);
    }
    y[j] = v;
  }
}

#pragma adsoac grad
double mathmore_sum(int n, const double *x, const double *u, const double *w) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double a = x[i], b = u[i], z = w[i];
    s += lgamma(b) + lgamma(0.4 * a - 2.5) + tgamma(0.4 * a - 0.5) + cbrt(a - copysign(0.3, -a));
    s += hypot(z, 0.25 * z) + hypot(a, b) + exp2(a) + log2(b) + log10(b + 1.0);
    s += fma(a, b, z) + copysign(b, a) + copysign(z, b) + erfc(a);
  }
  return s;
}

// Function-level scalar code and a time loop around the map (checkpoints, values computed
// again in the reverse sweep): fma with three active operands, the other functions on host.
// e2e: func mathmore_host
// e2e: scalar a range(0.5,1.5)
// e2e: scalar b range(-1,1) fill(fabs(r) < 1e-3 ? 0.5 : r)
// e2e: array y[n] range(-1,1)
#pragma adsoac grad
double mathmore_host(int n, double a, double b, const double *x, double *y) {
  double c = fma(a, b, hypot(a, b)) + tgamma(a) + erfc(b);
  for (int t = 0; t < 3; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      y[i] = fma(y[i], 0.5 * c, lgamma(x[i] + 2.0)) + copysign(x[i], b) * log2(a + 1.0);
    c = 0.5 * cbrt(c) + exp2(b) * log10(a + 1.0);
  }
  return c;
}
