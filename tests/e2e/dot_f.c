// Dot product in single precision.
// e2e: sizes n=0,1,2,7,64
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)

#pragma adsoac grad
float dot_f(int n, const float *x, const float *y) {
  float s = 0.0f;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}
