// The general scan rule's IR: a running product (the Jacobian of a step is the next factor,
// read in place: one 1x1 matrix), the linear recurrence of language.md §4 (two fields, one
// shared 1x1 matrix), a 2x2 matrix-product scan (two equal 2x2 blocks: one matrix) and
// composition in the other order (a dense 2x2 Jacobian); forward mode scans dual numbers.
typedef struct { double a, b; } Lin;

#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_then(Lin f, Lin g) { return (Lin){g.a * f.a, g.a * f.b + g.b}; }

#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_after(Lin f, Lin g) { return (Lin){f.a * g.a, f.a * g.b + f.b}; }

typedef struct { double m00, m01, m10, m11; } M2;

#pragma adsoac operator neutral((M2){1.0, 0.0, 0.0, 1.0})
static M2 mat_mul(M2 x, M2 y) {
  return (M2){x.m00 * y.m00 + x.m01 * y.m10, x.m00 * y.m01 + x.m01 * y.m11,
              x.m10 * y.m00 + x.m11 * y.m10, x.m10 * y.m01 + x.m11 * y.m11};
}

#pragma adsoac grad
void cumprod(int n, const double *x, double *y) {
  double p = 1.0;
#pragma adsoac scan(*: p)
  for (int i = 0; i < n; i++) {
    p *= x[i];
    y[i] = p;
  }
}

#pragma adsoac grad
void iir(int n, const double *a, const double *b, double *y) {
  Lin acc = {1.0, 0.0};
#pragma adsoac scan(lin_then: acc)
  for (int i = 0; i < n; i++) {
    acc = lin_then(acc, (Lin){a[i], b[i]});
    y[i] = acc.b;
  }
}

#pragma adsoac grad
double matscan(int n, const double *p, double *y) {
  M2 acc = {1.0, 0.0, 0.0, 1.0};
#pragma adsoac scan(mat_mul: acc)
  for (int i = 0; i < n; i++) {
    acc = mat_mul(acc, (M2){p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]});
    y[i] = acc.m01;
  }
  return acc.m10;
}

#pragma adsoac grad
double after(int n, const double *a, const double *b) {
  Lin acc = {1.0, 0.0};
#pragma adsoac scan(lin_after: acc)
  for (int i = 0; i < n; i++)
    acc = lin_after(acc, (Lin){a[i], b[i]});
  return acc.b;
}
