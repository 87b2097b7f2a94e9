typedef struct { double a; int n; } Acc;
#pragma adsoac operator neutral((Acc){0.0, 0})
static Acc acc_add(Acc x, Acc y) { return (Acc){x.a + y.a, x.n + y.n}; }
#pragma adsoac grad
double f(int n, const double *x) {
  Acc s = {0.0, 0};
#pragma adsoac reduce(acc_add: s)
  for (int i = 0; i < n; i++) s = acc_add(s, (Acc){x[i], 1});
  return s.a / s.n;
}
