// heat2: bench/heat.c with the time loop strip-mined two levels deep (language.md §5):
// `#pragma adsoac stripmine(2)` keeps about 2 sqrt(steps) saved states instead of
// steps and recomputes the rest (about one extra forward pass). Same function, same
// hand adjoint (bench/heat2_hand.c includes bench/heat_hand.c, which checkpoints every
// sqrt(steps) steps too) and same driver (bench/heat2_main.c includes bench/heat_main.c).
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed heat_seq) and through adsoac (heat, heat_vjp, heat_jvp).

#pragma adsoac grad
void heat(int n, int steps, double k, double *u, double *tmp) {
#pragma adsoac stripmine(2)
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
}
