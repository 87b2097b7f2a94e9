// Distribution of a loop with a histogram, a reduction and an elementwise write: distributed
// by `--no-fuse` in distribute_hist_split.ir, differentiated part by part and fused again in
// distribute_hist.ir (the hist(+) adjoint is a gather of the bins' adjoints).
#pragma adsoac grad
double binned(int n, int nb, const double *x, const int *bin, double *h, double *y) {
  double s = 0.0;
#pragma adsoac hist(+: h[0:nb]) reduce(+: s)
  for (int i = 0; i < n; i++) {
    double v = 2.0 * x[i];
    h[bin[i]] += v;
    y[i] = v * v;
    s += v;
  }
  return s;
}
