// Casts and C's implicit conversions in a float kernel: int -> float, float -> double ->
// float (a double-precision temporary), a truncating (int) cast used as an index (no
// derivative through it), unsigned and size_t indices, a double literal promoting a float
// expression, and a float reduction variable accumulating a double expression.
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(0.1,0.9)
// e2e: array w[4] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>
#include <stddef.h>

#pragma adsoac grad
float casts_f(int n, const float *x, const float *w, float *y) {
  float s = 0.0f;
#pragma adsoac reduce(+: s)
  for (size_t i = 0; i < (size_t)n; i++) {
    double d = (double)x[i] * 0.5;          // float -> double
    unsigned k = (unsigned)(x[i] * 4.0f);   // truncation: a bin, no derivative
    float t = (float)(d * d) + w[k] * x[i]; // read at a data-dependent index
    y[i] = t + (float)i / 8;                // int -> float
    s += t * 1.5;                           // float * double -> double, back to float
  }
  return s;
}
