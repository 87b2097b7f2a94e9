// A local struct carried by a sequential loop, its fields assigned directly and by a helper
// through a pointer (&acc): the loop carries the fields (a dependence-test assumption that a
// loop leaves its variables unchanged must not take fields for unassigned).
// e2e: sizes n=0,1,4,7
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
typedef struct { double a, b; } P;

static void step(P *p, double v) { p->a += v * p->b; p->b *= 0.5; }

#pragma adsoac grad
double struct_time_loop(int n, const double *x, double *y) {
  P acc = {0.0, 1.0}, run = {0.5, 2.0};
  double s = 0.0;
  for (int t = 0; t < n; t++) {
    acc.a += x[t] * acc.b;
    acc.b = acc.b * 0.75;
    step(&run, x[t]);
#pragma adsoac map
    for (int i = 0; i < n; i++) y[i] = y[i] * 0.5 + run.a * x[i];
    s += acc.a * run.b;
  }
  return s + acc.a;
}
