// A declared operator's reduce(max) nested in the body of a scan with a declared operator
// (the difftest's d7311_113): f_jvp emits the scan body in two passes, and each emitted the
// nested reduction's argmax operator and its tuple type again, so the C output did not
// compile (conflicting types); now once per function (emit_red.c emit_user_op).
// e2e: sizes n=0,1,2,7,33
// e2e: seeds 2
// e2e: int k = 3
// e2e: int steps = 3
// e2e: array x[n] range(-1,1)
// e2e: array p[8] range(-1,1)
// e2e: array idx[n] range(0,n)
// e2e: array bin[n] range(-1,6)
// e2e: array y[n] range(-1,1)
// e2e: array h[5] range(-1,1)
// e2e: scalar a range(-1,1)
#include <math.h>

typedef struct { float a, b; } Lin; // x -> a*x + b
#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin(Lin f, Lin g) { return (Lin){g.a * f.a, g.a * f.b + g.b}; }

static float hf1(float u, float v) { return u > v ? u * v : u - v; }

#pragma adsoac grad
float op_in_scan_body(int n, int k, int steps, float a, const float *x, const float *p, const int *idx,
    const int *bin, float *y, const float *h) {
  Lin acc1 = (Lin){1.0, 0.0};
  #pragma adsoac scan(lin: acc1)
  for (int i = 0; i < n; i++) {
    float t1 = -1e3;
    #pragma adsoac reduce(max: t1)
    for (int j1 = 0; j1 < 4; j1++) {
      t1 = fmax(t1, (3.0 - p[k]));
    }
    float t2 = (fmin(t1, a) + 0.5 * x[i]);
    acc1 = lin(acc1, (Lin){0.5 + 0.4 * tanh((t1 + 3.0 * (1.5 + t2))), fmax(t1, x[i])});
    y[i] = acc1.b + x[i];
  }
  Lin acc2 = (Lin){a, 0.5};
  #pragma adsoac scan(lin: acc2)
  for (int i = 0; i < n; i++) {
    float t3 = (x[idx[i]] > -0.05 ? 0.0 : p[2]) * sqrt(1.0 + 2.0 * 2.0);
    acc2 = lin(acc2, (Lin){0.5 + 0.4 * tanh((t3 + (n > 3 ? (3.0 - x[i]) : x[i] * x[i]))), p[k] * p[4]});
    y[i] = acc2.b + 3.0;
  }
  return acc1.b + acc2.b;
}
