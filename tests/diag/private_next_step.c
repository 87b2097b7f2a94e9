// A scalar private to a parallel loop's iterations, read in the next step of the time loop
// around it before the loop assigns it again: refused, naming both loops
#pragma adsoac grad
void f(int n, int steps, const double *x, double *y) {
  double t = 1.0;
  for (int s = 0; s < steps; s++) {
    y[0] = y[0] + t;
#pragma adsoac map
    for (int i = 0; i < n; i++) {
      t = x[i] * 2.0;
      y[i] = t * y[i];
    }
  }
}
