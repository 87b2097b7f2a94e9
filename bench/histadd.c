// histadd: h[bin[i]] += w[i]^2, a weighted histogram with +. A hist(+): the adjoint of
// w[i] reads the seed of its bin, the bins' adjoints pass through unchanged.
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed hsum_seq) and through adsoac (hsum, hsum_vjp, hsum_jvp).

#pragma adsoac grad
void hsum(int n, int k, const int *bin, const double *w, double *h) {
#pragma adsoac hist(+: h[0:k])
  for (int i = 0; i < n; i++)
    h[bin[i]] += w[i] * w[i];
}
