// Indirect read x[idx[i]]: x's adjoint needs accumulation (duplicates in idx are forced:
// every 4th index is m-1, and n > m in some cases), x elements never gathered get 0.
// e2e: sizes n=0,1,2,7,33,5 m=1,1,5,3,9,12
// e2e: array c[n] range(-1,1)
// e2e: array x[m] range(-1,1)
// e2e: array idx[n] range(0,m) fill(i % 4 == 3 ? m - 1 : r)
// e2e: array y[n] range(-1,1)

#pragma adsoac grad
void gather(int n, int m, const double *c, const double *x, const int *idx, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = c[i] * x[idx[i]];
}
