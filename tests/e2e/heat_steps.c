// The heat stencil of heat.c over up to 1000 time steps, with strip-mined checkpointing one,
// two and three levels deep (language.md §5): the gradients must not depend on the levels.
// tests/run-checkpoint.sh measures the saved states' peak memory of each (T, 2*sqrt(T),
// 3*cbrt(T) states).
// e2e: sizes n=0,1,3,6,9 steps=0,1,7,30,1000
// e2e: no-emu up to 1000 steps of about ten kernels each, per call: minutes in the CPU emulation
// e2e: scalar k range(0.05,0.45)
// e2e: array u[n] range(-1,1)
// e2e: array tmp[n] range(-1,1)
#pragma adsoac grad
void heat_s1(int n, int steps, double k, double *u, double *tmp) {
#pragma adsoac stripmine(1)
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
}

#pragma adsoac grad
void heat_s2(int n, int steps, double k, double *u, double *tmp) {
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

#pragma adsoac grad
void heat_s3(int n, int steps, double k, double *u, double *tmp) {
#pragma adsoac stripmine(3)
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
}
