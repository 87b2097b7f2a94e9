// mapreduce: a fused map-reduce, the least-squares loss of a scaling model,
// s = sum_i (a*x[i] - t[i])^2.
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed loss_seq) and through adsoac (loss, loss_vjp, loss_jvp).

#pragma adsoac grad
double loss(int n, double a, const double *x, const double *t) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double d = a * x[i] - t[i];
    s += d * d;
  }
  return s;
}
