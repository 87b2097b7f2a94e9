// maxval: m = max(c, max_i x[i]). A reduce(max); the adjoint goes to c if it
// attains the maximum, else to the earliest x[i] that does (language.md §7).
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed maxval_seq) and through adsoac (maxval, maxval_vjp, maxval_jvp).

#pragma adsoac grad
double maxval(int n, double c, const double *x) {
  double m = c;
#pragma adsoac reduce(max: m)
  for (int i = 0; i < n; i++)
    if (x[i] > m) m = x[i];
  return m;
}
