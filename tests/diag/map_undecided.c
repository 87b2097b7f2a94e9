// y[i] written and y[idx[i]] read: the dependence test cannot tell whether another iteration
// writes the element read (it depends on idx). Both accesses are named, and the hint says
// what settles it: injective(y), or splitting the loop.
#pragma adsoac grad
void f(int n, const double *x, const int *idx, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = x[i] * y[idx[i]];
}
