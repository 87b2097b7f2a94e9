// Every math function of language.md section 6, one output column each (y[21*i + k]), computed by a map over
// the 21*n outputs whose branches select the function (x and u are read at j / 21: atomics), on
// inputs in safe domains: a in (-1,1) (never 0 or a tie for fabs/fmin/fmax), b in (0.5,2).
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1) fill(fabs(r) < 1e-3 ? 0.5 : r)
// e2e: array u[n] range(0.5,2)
// e2e: array y[21*n] range(-1,1)

#include <math.h>

#pragma adsoac grad
void mathfns(int n, const double *x, const double *u, double *y) {
#pragma adsoac map
  for (int j = 0; j < 21 * n; j++) {
    int i = j / 21, k = j % 21;
    double a = x[i], b = u[i], v;
    if (k == 0) {
      v = sqrt(b);
    } else if (k == 1) {
      v = exp(a);
    } else if (k == 2) {
      v = log(a * a + 1.0);
    } else if (k == 3) {
      v = log1p(b);
    } else if (k == 4) {
      v = expm1(a);
    } else if (k == 5) {
      v = sin(a) * cos(b);
    } else if (k == 6) {
      v = tan(0.5 * a);
    } else if (k == 7) {
      v = asin(0.5 * a);
    } else if (k == 8) {
      v = acos(0.5 * a);
    } else if (k == 9) {
      v = atan(a);
    } else if (k == 10) {
      v = atan2(a, b);
    } else if (k == 11) {
      v = sinh(a);
    } else if (k == 12) {
      v = cosh(a);
    } else if (k == 13) {
      v = tanh(a);
    } else if (k == 14) {
      v = pow(b, a);
    } else if (k == 15) {
      v = fabs(a);
    } else if (k == 16) {
      v = fmin(a, b);
    } else if (k == 17) {
      v = fmax(a, 0.25);
    } else if (k == 18) {
      v = erf(a);
    } else if (k == 19) {
      v = floor(3.0 * a) + a;
    } else {
      v = pow(a * a + 0.5, 1.5) + sqrt(exp(a) + b);
    }
    y[j] = v;
  }
}
