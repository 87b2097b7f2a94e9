// iir: the first-order linear recurrence y_i = a[i] * y_{i-1} + b[i] (y_{-1} = 0),
// s = sum_i w[i] * y_i, written as a scan with a declared struct operator: the
// composition of affine maps x -> a*x + b (language.md §4), not commutative and
// without an inverse, so differentiated with the general scan rule.
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed iir_seq) and through adsoac (iir, iir_vjp, iir_jvp).

typedef struct { double a, b; } Lin; // x -> a*x + b

#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_then(Lin f, Lin g) { return (Lin){ g.a * f.a, g.a * f.b + g.b }; }

#pragma adsoac grad
double iir(int n, const double *a, const double *b, const double *w) {
  Lin acc = (Lin){1.0, 0.0};
  double s = 0.0;
#pragma adsoac scan(lin_then: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc = lin_then(acc, (Lin){a[i], b[i]});
    s += w[i] * acc.b;
  }
  return s;
}
