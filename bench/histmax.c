// histmax: h[b] = max(h[b], max_{i: bin[i] = b} x[i]), a histogram of maxima. A hist(max):
// per bin the adjoint goes to the initial content if it attains the maximum, else to the
// earliest x[i] that does (language.md §7).
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed hmax_seq) and through adsoac (hmax, hmax_vjp, hmax_jvp).

#pragma adsoac grad
void hmax(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(max: h[0:k])
  for (int i = 0; i < n; i++)
    if (x[i] > h[bin[i]]) h[bin[i]] = x[i];
}
