// A time loop around a stencil, strip-mined: the IR keeps the request for the checkpointing
// of a later version.
#pragma adsoac grad
void heat(int n, int steps, double k, double *u, double *v) {
#pragma adsoac stripmine(2)
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = u[i] + k * u[i];
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = v[i];
  }
}
