// dot: s = sum_i x[i]*y[i]. A plain reduce(+).
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed dot_seq) and through adsoac (dot, dot_vjp, dot_jvp).

#pragma adsoac grad
double dot(int n, const double *x, const double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}
