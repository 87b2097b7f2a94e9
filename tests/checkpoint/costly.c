// tests/checkpoint: a time loop whose body calls exp and tanh (costly: store-all, README
// "Sequential loops and checkpointing"), as it is (every step's values kept) and with
// stripmine(2) (the outer level checkpoints, one strip's steps kept at a time).
#include <math.h>

#pragma adsoac grad
void costly_s0(int n, int steps, const double *w, double *u) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) u[i] = tanh(w[i] * u[i]) + 0.1 * exp(-u[i] * u[i]);
  }
}

#pragma adsoac grad
void costly_s2(int n, int steps, const double *w, double *u) {
#pragma adsoac stripmine(2)
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) u[i] = tanh(w[i] * u[i]) + 0.1 * exp(-u[i] * u[i]);
  }
}
