// Map reading and writing y (y[i] += ...): y's initial contents are active.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar a range(-2,2)
// e2e: array x[n] range(-1,1)
// e2e: array y[n+1] range(-1,1)

#pragma adsoac grad
void saxpy_inout(int n, double a, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
