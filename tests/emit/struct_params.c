// Struct parameters as the generated code writes them (language.md §2): the fields of an
// array of structs p[i].f (the adjoints p_bar[i].f, the tangents p_dot[i].f), a struct passed
// by value w.f (its adjoint through Wishart *w_bar, its tangent Wishart w_dot), CUDA kernels
// taking the structs, and a saved section of a field copied element by element.
typedef struct {
  int id;
  double w;
} P;

typedef struct {
  double gamma;
  int m;
} Wishart;

#pragma adsoac grad
double struct_params(int n, const P *p, Wishart wi, P *q) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += p[i].w * q[i].w * (wi.m + 1);
#pragma adsoac map
  for (int i = 0; i < n; i++) q[i].w = wi.gamma * q[i].w + p[i].id;
  return s;
}
