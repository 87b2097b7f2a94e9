// A local named by a macro: C declares V, but adsoac expanded the later read of V to s (the
// reduction), a silently wrong primal and gradient before; now refused.
#define V s
#pragma adsoac grad
double shadow_min(int n, const double *x, double *out) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += x[i];
  {
    double V = 2.0 * x[0];
    out[0] = V;
  }
  return s;
}
