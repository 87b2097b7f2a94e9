// An in-place update by a loop inside a function-level if: the old elements would have to be
// saved inside the if, which is not supported yet.
#pragma adsoac grad
void if_inplace(int n, double t, double *z) {
  if (t > 0.0) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      z[i] = z[i] * z[i];
  }
}
