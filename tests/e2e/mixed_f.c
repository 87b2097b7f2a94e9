// The front end's constructs in single precision: a function-like macro, a static helper with
// an early return, a float struct, ?: and if/else, float math (f forms) and float literals.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar k range(0.5,1.5)
// e2e: array x[n] range(-1.5,1.5) fill(fabs(r) < 1e-2 ? 0.5 : r)
// e2e: array y[n] range(-1,1)
#include <math.h>

#define LERP(a, b, t) ((a) + ((b) - (a)) * (t))
typedef struct { float lo, hi; } Range;

static float clampish(float v, Range r) {
  if (v < r.lo) return r.lo + 0.1f * (v - r.lo);
  if (v > r.hi) return r.hi + 0.1f * (v - r.hi);
  return v;
}

#pragma adsoac grad
float mixed_f(int n, float k, const float *x, float *y) {
  float s = 0.0f;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    Range r = {-0.5f * k, k};
    float c = clampish(x[i], r);
    float t = c > 0 ? expf(-c) : LERP(c, sinf(c), 0.25f);
    if (t > 0.5f)
      t = sqrtf(t);
    else
      t = t * t;
    y[i] = t;
    s += t * k + ((t) - k * 0.5f); // (t) - ...: not a cast
  }
  return s;
}
