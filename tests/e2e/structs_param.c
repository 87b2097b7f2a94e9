// Struct parameters in their simplest form, for the harness's self-check too (selftest/
// structs_param_grad*.c): an array of structs read (const P *p), one written (P *q: only its
// field w), and a struct passed by value (C c), each with an int field that has no derivative.
// e2e: sizes n=0,1,2,7
// e2e: struct p[n] id=range(0,4) w=range(-1,1) v=range(-1,1)
// e2e: struct q[n] id=range(-3,3) w=range(-1,1) v=range(-1,1)
// e2e: struct c k=range(1,4) s=range(0.5,1.5)

typedef struct {
  int id;
  double w, v;
} P;

typedef struct {
  int k;
  double s;
} C;

#pragma adsoac grad
double structs_param(int n, const P *p, C c, P *q) {
  double t = 0.0;
#pragma adsoac reduce(+: t)
  for (int i = 0; i < n; i++) {
    q[i].w = c.s * p[i].w * p[i].v;
    t += p[i].id * p[i].w + c.k * c.s;
  }
  return t;
}
