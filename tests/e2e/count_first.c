// A declared struct operator whose first field gets only constants (a count): the fields of a
// tuple vary together, so the varied sum still gets its tangent and adjoint.
// e2e: sizes n=0,1,2,7,33
// e2e: array a[n] range(0.7,1.2)
typedef struct { double w, s; } Acc;
static Acc acc_sub(Acc x, Acc y) { return (Acc){x.w - y.w, x.s - y.s}; }
#pragma adsoac operator neutral((Acc){0.0, 0.0}) commutative inverse(acc_sub)
static Acc acc_add(Acc x, Acc y) { return (Acc){x.w + y.w, x.s + y.s}; }

#pragma adsoac grad
double count_first(int n, const double *a) {
  Acc m = {1.0, 0.0};
#pragma adsoac reduce(acc_add: m)
  for (int i = 0; i < n; i++)
    m = acc_add(m, (Acc){1.0, a[i] * a[i]});
  return m.s / m.w;
}
