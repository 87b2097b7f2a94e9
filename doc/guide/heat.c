#pragma adsoac grad
void heat(int n, int steps, double k, double *u, double *tmp) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
}
