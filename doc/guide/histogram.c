#pragma adsoac grad
void histogram(int n, int k, const int *bin, const double *w, double *h) {
#pragma adsoac hist(+: h[0:k])
  for (int i = 0; i < n; i++)
    h[bin[i]] += w[i];
}
