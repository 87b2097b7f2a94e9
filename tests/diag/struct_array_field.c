typedef struct { int id; double w[3]; } P;
#pragma adsoac grad
double f(int n, const P *p) {
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += p[i].w[0];
  return s;
}
