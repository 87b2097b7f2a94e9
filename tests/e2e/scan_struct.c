// scan with declared operators (the general rule; block-diagonal Jacobians share matrices):
// a linear recurrence y[i] = a[i] * y[i-1] + b[i] (an IIR filter) through the Lin operator of
// language.md §4, in double and float; a 2x2 matrix-product scan (non-symmetric matrices:
// its Jacobian is two equal 2x2 blocks); composition in the other order, whose Jacobian is
// not block-diagonal (a dense 2x2 that catches a transposed Jacobian); a scalar declared
// operator (log-sum-exp); a vectorised operator (componentwise products of three fields: a
// diagonal Jacobian, one scalar scan per field within one scan, the interchange rule's
// result); n = 0, 1 and odd sizes.
// e2e: sizes n=0,1,2,7,33,100
// e2e: func iir
// e2e: scalar y0 range(-1,1)
// e2e: array a[n] range(-0.95,0.95)
// e2e: array b[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func iir_f
// e2e: array a[n] range(-0.9,0.9)
// e2e: array b[n] range(-1,1)
// e2e: array w[n] range(-1,1)
// e2e: func matscan
// e2e: array p[4*n] range(-0.3,0.3)
// e2e: array w[n] range(-1,1)
// e2e: func before
// e2e: array a[n] range(-0.95,0.95)
// e2e: array b[n] range(-1,1)
// e2e: array w[n] range(-1,1)
// e2e: func vecprod
// e2e: array x[3*n] range(0.8,1.2)
// e2e: array w[n] range(-1,1)
// e2e: func softscan
// e2e: array x[n] range(-2,2)
// e2e: array y[n] range(-1,1)
#include <math.h>

typedef struct { double a, b; } Lin; // x -> a*x + b

#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_then(Lin f, Lin g) { return (Lin){ g.a * f.a, g.a * f.b + g.b }; }

// first f, then g is lin_then; lin_after applies g first: its Jacobian in f is dense
#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_after(Lin f, Lin g) { return (Lin){ f.a * g.a, f.a * g.b + f.b }; }

typedef struct { float a, b; } LinF;

#pragma adsoac operator neutral((LinF){1.0f, 0.0f})
static LinF linf_then(LinF f, LinF g) { return (LinF){ g.a * f.a, g.a * f.b + g.b }; }

typedef struct { double m00, m01, m10, m11; } M2;

#pragma adsoac operator neutral((M2){1.0, 0.0, 0.0, 1.0})
static M2 mat_mul(M2 x, M2 y) {
  return (M2){ x.m00 * y.m00 + x.m01 * y.m10, x.m00 * y.m01 + x.m01 * y.m11,
               x.m10 * y.m00 + x.m11 * y.m10, x.m10 * y.m01 + x.m11 * y.m11 };
}

typedef struct { double x, y, z; } V3;

#pragma adsoac operator neutral((V3){1.0, 1.0, 1.0})
static V3 vmul(V3 u, V3 v) { return (V3){ u.x * v.x, u.y * v.y, u.z * v.z }; }

#pragma adsoac operator neutral(-1e300)
static double lse(double u, double v) {
  double m = fmax(u, v);
  return m + log(exp(u - m) + exp(v - m));
}

// the IIR filter y[i] = a[i] * y[i-1] + b[i] from y[-1] = y0
#pragma adsoac grad
void iir(int n, double y0, const double *a, const double *b, double *y) {
  Lin acc = (Lin){1.0, y0};
#pragma adsoac scan(lin_then: acc)
  for (int i = 0; i < n; i++) {
    acc = lin_then(acc, (Lin){a[i], b[i]});
    y[i] = acc.b;
  }
}

#pragma adsoac grad
float iir_f(int n, const float *a, const float *b, const float *w) {
  LinF acc = (LinF){1.0f, 0.5f};
  float s = 0.0f;
#pragma adsoac scan(linf_then: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc = linf_then(acc, (LinF){a[i], b[i]});
    s += w[i] * acc.b * acc.b + acc.a;
  }
  return s;
}

// running products of the 2x2 matrices I + P_i, a weighted loss of every prefix
#pragma adsoac grad
double matscan(int n, const double *p, const double *w) {
  M2 acc = (M2){1.0, 0.0, 0.0, 1.0};
  double s = 0.0;
#pragma adsoac scan(mat_mul: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    M2 m = (M2){1.0 + p[4 * i], p[4 * i + 1], p[4 * i + 2], 1.0 + p[4 * i + 3]};
    acc = mat_mul(acc, m);
    s += w[i] * (acc.m00 + 2.0 * acc.m01 - acc.m10 + 0.5 * acc.m11);
  }
  return s + acc.m01;
}

#pragma adsoac grad
double before(int n, const double *a, const double *b, const double *w) {
  Lin acc = (Lin){1.0, 0.0};
  double s = 0.0;
#pragma adsoac scan(lin_after: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    s += w[i] * acc.b * acc.a; // the exclusive prefix
    acc = lin_after(acc, (Lin){a[i], b[i]});
  }
  return s + acc.b;
}

#pragma adsoac grad
double softscan(int n, const double *x, double *y) {
  double m = -1e300;
#pragma adsoac scan(lse: m)
  for (int i = 0; i < n; i++) {
    m = lse(m, x[i]);
    y[i] = x[i] - m; // log-softmax of the prefix
  }
  return m;
}

#pragma adsoac grad
double vecprod(int n, const double *x, const double *w) {
  V3 acc = (V3){1.0, 2.0, 0.5};
  double s = 0.0;
#pragma adsoac scan(vmul: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc = vmul(acc, (V3){x[3 * i], x[3 * i + 1], x[3 * i + 2]});
    s += w[i] * (acc.x - acc.y * acc.z);
  }
  return s + acc.z;
}
