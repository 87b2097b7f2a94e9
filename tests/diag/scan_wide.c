// reverse mode of a scan over a struct of more than 16 fields is refused
typedef struct { double f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16; } V17;

#pragma adsoac operator neutral((V17){0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0})
static V17 add17(V17 u, V17 v) { return (V17){u.f0 + v.f0, u.f1 + v.f1, u.f2 + v.f2, u.f3 + v.f3, u.f4 + v.f4, u.f5 + v.f5, u.f6 + v.f6, u.f7 + v.f7, u.f8 + v.f8, u.f9 + v.f9, u.f10 + v.f10, u.f11 + v.f11, u.f12 + v.f12, u.f13 + v.f13, u.f14 + v.f14, u.f15 + v.f15, u.f16 + v.f16}; }

#pragma adsoac grad
double wide(int n, const double *x) {
  V17 acc = (V17){0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  double s = 0.0;
#pragma adsoac scan(add17: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc = add17(acc, (V17){x[i] * 1.0, x[i] * 2.0, x[i] * 3.0, x[i] * 4.0, x[i] * 5.0, x[i] * 6.0, x[i] * 7.0, x[i] * 8.0, x[i] * 9.0, x[i] * 10.0, x[i] * 11.0, x[i] * 12.0, x[i] * 13.0, x[i] * 14.0, x[i] * 15.0, x[i] * 16.0, x[i] * 17.0});
    s += acc.f16 * acc.f0;
  }
  return s;
}
