typedef struct { int id; double w, v; } P;
#pragma adsoac grad
void f(int n, const P *p, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = p[i].w;
    p[i].v = 2.0 * y[i];
  }
}
