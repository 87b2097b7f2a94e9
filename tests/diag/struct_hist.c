typedef struct { int id; double w, v; } P;
#pragma adsoac grad
void f(int n, const double *x, P *h) {
#pragma adsoac hist(+: h[0:n])
  for (int i = 0; i < n; i++) h[i % n].w += x[i];
}
