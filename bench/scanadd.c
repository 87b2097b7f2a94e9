// scanadd: s = sum_i w[i] * A_i^2 with A_i = x[0] + ... + x[i], the inclusive
// prefix sum. A scan(+) whose prefixes feed a reduce(+) in the same loop.
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed cumloss_seq) and through adsoac (cumloss, cumloss_vjp, cumloss_jvp).

#pragma adsoac grad
double cumloss(int n, const double *x, const double *w) {
  double acc = 0.0, s = 0.0;
#pragma adsoac scan(+: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc += x[i];
    s += w[i] * acc * acc;
  }
  return s;
}
