// A map reading a loop-invariant element x[k] and x[i] at the loop index: x[k]'s adjoint
// collects a reduction over all iterations plus its own per-element part.
// e2e: sizes n=0,1,2,7,33 k=0,0,1,6,17
// e2e: array x[n] range(-1,1)
// e2e: array w[n] range(-1,1)
// e2e: array y[n] range(-1,1)

#pragma adsoac grad
void invariant(int n, int k, const double *x, const double *w, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = w[i] * x[k] + x[i] * x[i];
}
