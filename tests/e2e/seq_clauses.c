// Time loops around every clause kind: a scan (lowered and differentiated inside the loop's
// body), a reduction with a declared operator without inverse (computed as a scan), min/max
// and * reductions feeding carried scalars, and hist(max) / hist(*) updated every step.
// e2e: sizes n=0,1,2,5,8 steps=0,1,2,4,3 k=1,1,2,3,4
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func hists
// e2e: array bin[n] range(-1,5)
// e2e: array w[n] range(0.5,1.5)
// e2e: array h[k] range(-1,1)
// e2e: array g[k] range(0.5,1.5)
#include <math.h>

typedef struct { double a, b; } Lin; // x -> a*x + b

#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_then(Lin f, Lin g) { return (Lin){ g.a * f.a, g.a * f.b + g.b }; }

#pragma adsoac grad
double scans(int n, int steps, const double *x, double *y) {
  double e = 0.5;
  for (int t = 0; t < steps; t++) {
    double acc = e;
#pragma adsoac scan(+: acc)
    for (int i = 0; i < n; i++) {
      acc += x[i] * y[i];
      y[i] = 0.5 * tanh(acc) + 0.1 * y[i];
    }
    Lin l = (Lin){1.0, 0.0};
#pragma adsoac reduce(lin_then: l)
    for (int i = 0; i < n; i++)
      l = lin_then(l, (Lin){0.9 * cos(y[i]), x[i]});
    double m = -INFINITY, p = 1.0;
#pragma adsoac reduce(max: m) reduce(*: p)
    for (int i = 0; i < n; i++) {
      m = fmax(m, y[i] * x[i]);
      p *= 1.0 + 0.5 * y[i];
    }
    e = 0.5 * e + l.a * e + l.b + (n > 0 ? m : 0.0) + 0.1 * p;
  }
  return e;
}

#pragma adsoac grad
void hists(int n, int k, int steps, const int *bin, const double *w, const double *x,
           double *h, double *g) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac hist(max: h[0:k]) hist(*: g[0:k])
    for (int i = 0; i < n; i++) {
#ifdef ADSOAC_E2E_REFERENCE
      if (bin[i] < 0 || bin[i] >= k) continue;
#endif
      h[bin[i]] = fmax(h[bin[i]], w[i] * x[i] + 0.1 * t);
      g[bin[i]] *= 0.5 + 0.5 * w[i] * cos(x[i]);
    }
  }
}

// A time loop around hist with a declared operator without inverse (the general rule: the
// updates sorted by bin) and a scan(*) (the general scan rule).
// e2e: func general
// e2e: array bin[n] range(-1,5)
// e2e: array w[n] range(0.5,1.5)
// e2e: array h[k] range(0.5,1.5)
#pragma adsoac operator neutral(0.0) commutative
static double norm2(double a, double b) { return sqrt(a * a + b * b); }

#pragma adsoac grad
void general(int n, int k, int steps, const int *bin, const double *w, double *h) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac hist(norm2: h[0:k])
    for (int i = 0; i < n; i++) {
#ifdef ADSOAC_E2E_REFERENCE
      if (bin[i] < 0 || bin[i] >= k) continue;
#endif
      h[bin[i]] = norm2(h[bin[i]], w[i] * (1.0 + 0.1 * t));
    }
    double p = 1.0;
#pragma adsoac scan(*: p)
    for (int i = 0; i < k; i++) {
      p *= 0.5 + 0.25 * h[i];
      h[i] = p;
    }
  }
}
