// A sequential loop that writes an array, inside an if at the function's level: reverse
// mode refused with a hint (without writes it is reversed by recomputation).
#pragma adsoac grad
void f(int n, int steps, const double *x, double *y) {
  if (steps > 0) {
    for (int t = 0; t < steps; t++) {
#pragma adsoac map
      for (int i = 0; i < n; i++)
        y[i] = x[i] * t;
    }
  }
}
