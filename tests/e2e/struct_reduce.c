// reduce with declared operators on structs, commutative with an inverse: the product of
// complex numbers (inverse: complex division) and a sum of (count, total) pairs; the struct
// results are used field by field.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar c range(0.5,1.5)
// e2e: array a[n] range(0.7,1.2)
// e2e: array b[n] range(-0.3,0.3)
#include <math.h>

typedef struct { double re, im; } Cx;
typedef struct { double w, s; } Acc;

static Cx cdiv(Cx p, Cx q) {
  double d = q.re * q.re + q.im * q.im;
  return (Cx){(p.re * q.re + p.im * q.im) / d, (p.im * q.re - p.re * q.im) / d};
}
#pragma adsoac operator neutral((Cx){1.0, 0.0}) commutative inverse(cdiv)
static Cx cmul(Cx p, Cx q) { return (Cx){p.re * q.re - p.im * q.im, p.re * q.im + p.im * q.re}; }

static Acc acc_sub(Acc x, Acc y) { return (Acc){x.w - y.w, x.s - y.s}; }
#pragma adsoac operator neutral((Acc){0.0, 0.0}) commutative inverse(acc_sub)
static Acc acc_add(Acc x, Acc y) { return (Acc){x.w + y.w, x.s + y.s}; }

#pragma adsoac grad
double struct_reduce(int n, double c, const double *a, const double *b) {
  Cx z = {c, 0.1};
  Acc m = {0.0, 0.0};
#pragma adsoac reduce(cmul: z) reduce(acc_add: m)
  for (int i = 0; i < n; i++) {
    z = cmul(z, (Cx){a[i], b[i]});
    m = acc_add(m, (Acc){a[i] * a[i], a[i] * b[i] * c});
  }
  return z.re + 2.0 * z.im + m.w * m.s;
}
