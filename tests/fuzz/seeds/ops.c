// fuzz seed: integer and float operators, casts, compound assignments, loop forms
#include <math.h>

#pragma adsoac grad
void ops(long n, int k, float a, const float *x, const int *ix, float *y, int *iy) {
#pragma adsoac map
  for (long i = 0; i <= n - 1; ++i) {
    int j = (int)i % 7;
    int b = (j & 3) | (j ^ 5) | (j << 1) | (j >> 1) | ~j | !j;
    float t = x[i] * a - (float)b / 2.0f;
    t += 1.0f;
    t -= x[ix[i]];
    t *= 0.5f;
    t /= 3.0f;
    y[i] = j > 2 && j < 5 || j == 0 ? t : -t;
    iy[i] = b + k;
  }
}

#pragma adsoac grad wrt(x)
double mixed(unsigned n, double c, const double *x, double *out) {
  double s = 0.0, p = 0.0;
#pragma adsoac reduce(+: s, p)
  for (unsigned i = 0; i < n; i += 1) {
    double v = x[i] * c;
    s += v;
    p += x[0] * x[n - 1] - v / 2;
  }
  if (s > p) {
    out[0] = s;
  } else {
    out[0] = p * c;
  }
  return s * p;
}
