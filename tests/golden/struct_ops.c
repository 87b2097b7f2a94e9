// Declared operators on structs (language.md §4): the linear-recurrence operator of
// y[i] = a[i]*y[i-1] + b[i] as a scan, and as a reduction; the operator is a lambda in the IR.
typedef struct { double a, b; } Lin; // x -> a*x + b

#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_then(Lin f, Lin g) { return (Lin){g.a * f.a, g.a * f.b + g.b}; }

#pragma adsoac grad
double iir(int n, const double *a, const double *b, double *y) {
  Lin acc = {1.0, 0.0}, all = {1.0, 0.0};
#pragma adsoac scan(lin_then: acc)
  for (int i = 0; i < n; i++) {
    acc = lin_then(acc, (Lin){a[i], b[i]});
    y[i] = acc.b;
  }
#pragma adsoac reduce(lin_then: all)
  for (int i = 0; i < n; i++)
    all = lin_then(all, (Lin){a[i], b[i]});
  return all.a + all.b;
}
