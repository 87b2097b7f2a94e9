// saxpy in single precision.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar a range(-2,2)
// e2e: scalar b range(-2,2)
// e2e: array x[n] range(-1,1)
// e2e: array y[n+2] range(-1,1)

#pragma adsoac grad
void saxpy_f(int n, float a, float b, const float *x, float *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + b;
}
