// scanmul: s = sum_i w[i] * p_i with p_i = c * x[0] * ... * x[i], the inclusive
// prefix product. A scan(*) whose prefixes feed a reduce(+) in the same loop.
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed cumprod_seq) and through adsoac (cumprod, cumprod_vjp, cumprod_jvp).

#pragma adsoac grad
double cumprod(int n, double c, const double *x, const double *w) {
  double p = c, s = 0.0;
#pragma adsoac scan(*: p) reduce(+: s)
  for (int i = 0; i < n; i++) {
    p *= x[i];
    s += w[i] * p;
  }
  return s;
}
