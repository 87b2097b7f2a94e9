// Value tapes (ad/rev_map.c tape_values): where a sequential loop's reverse runs a parallel
// loop of its body forward and then reverses it, the forward run keeps the loop body's costly
// calls (exp, log, tanh, pow, ...) on a tape and the reverse loop reads them instead of
// calling again. steps: a time loop whose map updates its state in place (the tape must hold
// the values of the state before the update), from i = 1 (a lower bound that is not 0), with
// a call under an if (not taped) and a reduction of exp terms; layers: a time loop around a
// layer loop (kept whole per step: store-all) whose map, from i = 2, calls sin, atan, erf and
// pow of mixed float and double values (one tape, of the first call's type); flt: single
// precision, expf and tanhf, and a double exp after them (not taped: another type); many:
// 18 calls in one body (16 taped, the rest called again). Sizes: n = 0, 1, 2 (no iteration
// from 2), odd; T = 0, 1.
// e2e: sizes T=0,1,3,2 n=0,1,5,2 L=1,2,3,0
// e2e: func steps
// e2e: array w[n] range(-1,1)
// e2e: array u[n] range(-1,1)
// e2e: func layers
// e2e: array w[L*n] range(-1,1)
// e2e: array st[L*n] range(-1,1)
// e2e: array fq[n] range(0.2,0.9)
// e2e: func flt
// e2e: array a[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func many
// e2e: array c[n] range(-1,1)
// e2e: array v[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
double steps(int T, int n, const double *w, double *u) {
  double total = 0.0;
  for (int t = 0; t < T; t++) {
#pragma adsoac map
    for (int i = 1; i < n; i++) {
      double e = exp(-w[i] * u[i]);
      double th = tanh(u[i] + 0.5 * w[i]);
      double r = pow(fabs(u[i]) + 1.0, 0.5 + 0.25 * w[i]);
      double z = e * th + 0.3 * r;
      if (z > 0.2) z = z + 0.1 * log(1.0 + z * z);
      u[i] = z;
    }
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int i = 0; i < n; i++) s += exp(0.5 * u[i]) * w[i];
    total += log(1.0 + s * s);
  }
  return total;
}

#pragma adsoac grad
double layers(int T, int L, int n, const double *w, double *st, const float *fq) {
  double loss = 0.0;
  for (int t = 0; t < T; t++) {
    for (int l = 0; l < L; l++) {
#pragma adsoac map
      for (int i = 2; i < n; i++) {
        double a = sin(st[l * n + i] + w[l * n + i]);
        float q = (float)atan(fq[i] * (float)a);
        double b = erf(0.5 * a) + pow((double)q * q + 1.0, 1.5);
        st[l * n + i] = 0.5 * st[l * n + i] + 0.25 * a * b;
      }
    }
    loss += st[0] * st[(L > 0 ? L - 1 : 0) * n + (n > 0 ? n - 1 : 0)];
  }
  return loss;
}

#pragma adsoac grad
float flt(int T, int n, const float *a, float *y) {
  float acc = 0.0f;
  for (int t = 0; t < T; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      y[i] = tanhf(a[i] * y[i]) + 0.5f * expf(-y[i] * y[i]) + 0.25f * (float)exp(0.5 * a[i] * y[i]);
#pragma adsoac reduce(+: acc)
    for (int i = 0; i < n; i++) acc += y[i] * a[i];
  }
  return acc;
}

#pragma adsoac grad
double many(int T, int n, const double *c, double *v) {
  double s = 0.0;
  for (int t = 0; t < T; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) {
      double x = v[i], w = c[i];
      double e1 = exp(0.1 * x * w), e2 = exp(0.2 * x), e3 = exp(0.3 * w * x), e4 = exp(-0.1 * x);
      double t1 = tanh(x + w), t2 = tanh(x - w), t3 = tanh(0.5 * x), t4 = tanh(2.0 * x * w);
      double s1 = sin(x), s2 = sin(w * x), c1 = cos(x + 1.0), c2 = cos(x * w);
      double l1 = log(2.0 + x), l2 = log(3.0 + x * w), a1 = atan(x), a2 = atan(x * w);
      double p1 = pow(1.5 + x, 1.2), p2 = pow(2.0 + w * x, 0.7);
      v[i] = 0.05 * (e1 + e2 + e3 + e4 + t1 + t2 + t3 + t4 + s1 + s2 + c1 + c2 + l1 + l2 + a1 +
                     a2 + p1 + p2);
    }
#pragma adsoac reduce(+: s)
    for (int i = 0; i < n; i++) s += v[i] * c[i];
  }
  return s;
}
