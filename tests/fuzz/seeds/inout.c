// fuzz seed: arrays read and written by several loops, element writes, a sequence of loops
#pragma adsoac grad
void steps(int n, double h, double *u, double *v, const double *w) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    v[i] = u[i] * w[i];
#pragma adsoac map
  for (int i = 0; i < n; i++)
    u[i] = u[i] + h * v[i];
  double m = 0.0;
#pragma adsoac reduce(+: m)
  for (int i = 0; i < n; i++) {
    if (u[i] > 0) m += u[i];
    else m += -u[i] * v[i];
  }
  u[0] = m;
  v[n - 1] = m * h;
}

#pragma adsoac grad
int count(int n, const double *x, int *c) {
  int k = 0;
#pragma adsoac reduce(+: k)
  for (int i = 0; i < n; i++)
    k += x[i] > 0.5;
  c[0] = k;
  return k;
}
