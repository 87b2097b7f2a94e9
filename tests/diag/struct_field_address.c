typedef struct { int id; double w, v; } P;
static void put(double *o, double v) { *o = v; }
#pragma adsoac grad
void f(int n, const double *x, P *q) {
#pragma adsoac map
  for (int i = 0; i < n; i++) put(&q[i].w, x[i]);
}
