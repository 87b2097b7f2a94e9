// histmul: h[bin[i]] *= x[i], a histogram of products. A hist(*), zero-safe (language.md
// §7): adsoac's rule for * counts zeros per bin, so no division by a zero factor.
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed hprod_seq) and through adsoac (hprod, hprod_vjp, hprod_jvp).

#pragma adsoac grad
void hprod(int n, int k, const int *bin, const double *x, double *h) {
#pragma adsoac hist(*: h[0:k])
  for (int i = 0; i < n; i++)
    h[bin[i]] *= x[i];
}
