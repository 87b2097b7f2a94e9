typedef struct { int bin; double lo, hi; } Span;
static Span widen(double x, double a) { return (Span){x > 0, x - a, x + a}; }
#pragma adsoac grad
void f(int n, double a, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    Span s = i % 2 ? widen(x[i], a) : widen(x[i], 2 * a);
    y[i] = s.bin ? s.hi : s.lo;
  }
}
