// A map in a time loop that writes its array at an index other than its own (y[2*i]): the
// section it overwrites is not checkpointed.
#pragma adsoac grad
void f(int n, int steps, double *y) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      y[2 * i] = y[2 * i] * 0.5 + 1.0;
  }
}
