// In-place updates inside a sequential time loop (language.md §5).  u holds n interior values
// u[1..n] and two ghost cells u[0], u[n+1].  Per step: a map that updates the interior in
// place (u[i] read and written at the same index), boundary conditions written directly at
// function level, outside any parallel loop (u[0] = u[1], u[n+1] = u[n]), and a reduction
// (reading the ghost u[0] through u[i-1]) whose result updates a scalar carried across steps
// (e = 0.5 e + s).  The final e is stored into out[0].
// Ghost cells keep the boundary writes in bounds for n = 0 without an `if` (a guarded
// `if (n > 1) u[0] = u[1];` is refused: saving overwritten elements inside an if).
// e2e: sizes n=0,1,2,7,5,3 steps=0,1,3,8,2,1
// e2e: scalar dt range(0.05,0.5)
// e2e: array w[n+2] range(-1,1)
// e2e: array u[n+2] range(-1.5,1.5)
// e2e: array out[1] range(-1,1)
#include <math.h>

#pragma adsoac grad
void inplace_steps(int n, int steps, double dt, const double *w, double *u, double *out) {
  double e = 0.0;
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 1; i <= n; i++)
      u[i] = u[i] + dt * sin(u[i]) * w[i];
    u[0] = u[1];
    u[n + 1] = u[n];
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int i = 1; i <= n; i++)
      s += w[i] * u[i] * u[i - 1];
    e = 0.5 * e + s;
  }
  out[0] = e;
}
