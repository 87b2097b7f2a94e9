// Map overwriting y without reading it; y has two elements the loop never touches
// (their adjoints must keep the seed, the overwritten ones must get 0).
// e2e: sizes n=0,1,2,7,33
// e2e: scalar a range(-2,2)
// e2e: scalar b range(-2,2)
// e2e: array x[n] range(-1,1)
// e2e: array y[n+2] range(-1,1)

#pragma adsoac grad
void saxpy(int n, double a, double b, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + b;
}
