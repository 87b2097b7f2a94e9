// A parallel loop in a time loop whose bounds change with the step: what an iteration
// overwrites is not the same section every time, and is not checkpointed.
#pragma adsoac grad
void f(int n, int steps, double *u) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < t; i++)
      u[i] = u[i] * 0.5 + 1.0;
  }
}
