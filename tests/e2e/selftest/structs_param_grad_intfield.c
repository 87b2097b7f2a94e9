// selftest: expect integer field of a derivative struct was written
/* Broken: writes the int field of p_bar (language.md 2: neither read nor written). */
typedef struct {
  int id;
  double w, v;
} P;

typedef struct {
  int k;
  double s;
} C;

double structs_param(int n, const P *p, C c, P *q) {
  double t = 0.0;
  for (int i = 0; i < n; i++) {
    q[i].w = c.s * p[i].w * p[i].v;
    t += p[i].id * p[i].w + c.k * c.s;
  }
  return t;
}

double structs_param_vjp(int n, const P *p, P *p_bar, C c, C *c_bar, P *q, P *q_bar,
                         double ret_bar) {
  double t = 0.0, gs = 0.0;
  for (int i = 0; i < n; i++) {
    double g = q_bar[i].w;
    q[i].w = c.s * p[i].w * p[i].v;
    t += p[i].id * p[i].w + c.k * c.s;
    p_bar[i].w += g * c.s * p[i].v + ret_bar * p[i].id;
    p_bar[i].v += g * c.s * p[i].w;
    gs += g * p[i].w * p[i].v + ret_bar * c.k;
    q_bar[i].w = 0.0;
    p_bar[i].id = 0; /* broken: an int field of the adjoint written */
  }
  c_bar->s += gs;
  return t;
}

double structs_param_jvp(int n, const P *p, const P *p_dot, C c, C c_dot, P *q, P *q_dot,
                         double *ret_dot) {
  double t = 0.0, td = 0.0;
  for (int i = 0; i < n; i++) {
    q[i].w = c.s * p[i].w * p[i].v;
    q_dot[i].w = c_dot.s * p[i].w * p[i].v + c.s * p_dot[i].w * p[i].v + c.s * p[i].w * p_dot[i].v;
    t += p[i].id * p[i].w + c.k * c.s;
    td += p[i].id * p_dot[i].w + c.k * c_dot.s;
  }
  *ret_dot = td;
  return t;
}
