// A time loop around a stencil, strip-mined two levels deep: the IR of f_vjp shows the
// nested loops, what each iteration saves (a comment) and the restores of its reverse.
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
