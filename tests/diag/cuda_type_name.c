// A marked function named like a CUDA vector type: the default (CUDA) target refuses it.
#pragma adsoac grad
double float2(int n, const double *x) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
