// reduce with declared operators outside the invertible-operator rule: not commutative (the
// order of composition matters: linear functions, 2x2 matrix products, float and double), or
// commutative without an inverse (log-sum-exp; a struct of a sum and the sum of pairwise
// products; componentwise products of three fields, a vectorised operator whose Jacobian is
// diagonal).  They are computed as order-preserving scans (their totals) and differentiated
// by the general scan rule; n = 0, 1 and odd sizes.
// e2e: sizes n=0,1,2,7,33,100
// e2e: func compose
// e2e: scalar y0 range(-1,1)
// e2e: array a[n] range(-0.95,0.95)
// e2e: array b[n] range(-1,1)
// e2e: func compose_f
// e2e: array a[n] range(-0.95,0.95)
// e2e: array b[n] range(-1,1)
// e2e: func matprod
// e2e: array p[4*n] range(-0.3,0.3)
// e2e: func softmax_norm
// e2e: scalar c range(-1,1)
// e2e: array x[n] range(-2,2)
// e2e: func vecprod
// e2e: array x[3*n] range(0.8,1.2)
// e2e: func pairs
// e2e: array x[n] range(-1,1)
#include <math.h>

typedef struct { double a, b; } Lin; // x -> a*x + b

#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_then(Lin f, Lin g) { return (Lin){ g.a * f.a, g.a * f.b + g.b }; }

typedef struct { float a, b; } LinF;

#pragma adsoac operator neutral((LinF){1.0f, 0.0f})
static LinF linf_then(LinF f, LinF g) { return (LinF){ g.a * f.a, g.a * f.b + g.b }; }

typedef struct { double m00, m01, m10, m11; } M2;

#pragma adsoac operator neutral((M2){1.0, 0.0, 0.0, 1.0})
static M2 mat_mul(M2 x, M2 y) {
  return (M2){ x.m00 * y.m00 + x.m01 * y.m10, x.m00 * y.m01 + x.m01 * y.m11,
               x.m10 * y.m00 + x.m11 * y.m10, x.m10 * y.m01 + x.m11 * y.m11 };
}

#pragma adsoac operator neutral(-1e300) commutative
static double lse(double u, double v) {
  double m = fmax(u, v);
  return m + log(exp(u - m) + exp(v - m));
}

typedef struct { double s, q; } Pairs; // the sum, and the sum of products of distinct pairs

#pragma adsoac operator neutral((Pairs){0.0, 0.0}) commutative
static Pairs pair_add(Pairs u, Pairs v) { return (Pairs){ u.s + v.s, u.q + v.q + u.s * v.s }; }

typedef struct { double x, y, z; } V3;

#pragma adsoac operator neutral((V3){1.0, 1.0, 1.0}) commutative
static V3 vmul(V3 u, V3 v) { return (V3){ u.x * v.x, u.y * v.y, u.z * v.z }; }

// the composition of the maps x -> a[i]*x + b[i], applied to y0
#pragma adsoac grad
double compose(int n, double y0, const double *a, const double *b) {
  Lin acc = (Lin){1.0, 0.0};
#pragma adsoac reduce(lin_then: acc)
  for (int i = 0; i < n; i++)
    acc = lin_then(acc, (Lin){a[i], b[i]});
  return acc.a * y0 + acc.b;
}

#pragma adsoac grad
float compose_f(int n, const float *a, const float *b) {
  LinF acc = (LinF){1.0f, 0.0f};
#pragma adsoac reduce(linf_then: acc)
  for (int i = 0; i < n; i++)
    acc = linf_then(acc, (LinF){a[i], b[i]});
  return acc.a * 0.5f + acc.b * acc.b;
}

// the product (I + P_0)(I + P_1)... of non-symmetric 2x2 matrices, from the left
#pragma adsoac grad
double matprod(int n, const double *p) {
  M2 acc = (M2){1.0, 0.0, 0.0, 1.0};
#pragma adsoac reduce(mat_mul: acc)
  for (int i = 0; i < n; i++)
    acc = mat_mul(acc, (M2){1.0 + p[4 * i], p[4 * i + 1], p[4 * i + 2], 1.0 + p[4 * i + 3]});
  return acc.m00 + 2.0 * acc.m01 - 3.0 * acc.m10 + 0.5 * acc.m11;
}

// log(exp(c) + sum exp(x[i] * x[i])), the initial value active
#pragma adsoac grad
double softmax_norm(int n, double c, const double *x) {
  double m = c;
#pragma adsoac reduce(lse: m)
  for (int i = 0; i < n; i++)
    m = lse(m, x[i] * x[i]);
  return m;
}

#pragma adsoac grad
double pairs(int n, const double *x) {
  Pairs acc = (Pairs){0.0, 0.0};
#pragma adsoac reduce(pair_add: acc)
  for (int i = 0; i < n; i++)
    acc = pair_add(acc, (Pairs){sin(x[i]), 0.0});
  return acc.q + 0.25 * acc.s;
}

#pragma adsoac grad
double vecprod(int n, const double *x) {
  V3 acc = (V3){1.0, -2.0, 0.5};
#pragma adsoac reduce(vmul: acc)
  for (int i = 0; i < n; i++)
    acc = vmul(acc, (V3){x[3 * i], x[3 * i + 1] * x[3 * i + 1], exp(x[3 * i + 2] - 1.0)});
  return acc.x + acc.y * acc.z;
}
