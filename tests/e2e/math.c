// Every math function of language.md section 6, one output column each (y[NF*i + j]), on
// inputs in safe domains: a in (-1,1) (never 0 or a tie for fabs/fmin/fmax), b in (0.5,2).
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1) fill(fabs(r) < 1e-3 ? 0.5 : r)
// e2e: array u[n] range(0.5,2)
// e2e: array y[21*n] range(-1,1)

#include <math.h>

#define NF 21

#pragma adsoac grad
void mathfns(int n, const double *x, const double *u, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double a = x[i], b = u[i];
    y[NF * i + 0] = sqrt(b);
    y[NF * i + 1] = exp(a);
    y[NF * i + 2] = log(a * a + 1.0);
    y[NF * i + 3] = log1p(b);
    y[NF * i + 4] = expm1(a);
    y[NF * i + 5] = sin(a) * cos(b);
    y[NF * i + 6] = tan(0.5 * a);
    y[NF * i + 7] = asin(0.5 * a);
    y[NF * i + 8] = acos(0.5 * a);
    y[NF * i + 9] = atan(a);
    y[NF * i + 10] = atan2(a, b);
    y[NF * i + 11] = sinh(a);
    y[NF * i + 12] = cosh(a);
    y[NF * i + 13] = tanh(a);
    y[NF * i + 14] = pow(b, a);
    y[NF * i + 15] = fabs(a);
    y[NF * i + 16] = fmin(a, b);
    y[NF * i + 17] = fmax(a, 0.25);
    y[NF * i + 18] = erf(a);
    y[NF * i + 19] = floor(3.0 * a) + a;
    y[NF * i + 20] = pow(a * a + 0.5, 1.5) + sqrt(exp(a) + b);
  }
}
