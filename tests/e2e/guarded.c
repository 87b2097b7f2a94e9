// Element writes under an if, in a time loop and at the function's level, of an array that
// a parallel loop reads: the element is saved only where the if's condition holds (with
// n = 0 or 1 it lies outside the array), per iteration in the loop's checkpoints and before
// the if at the function's level.
// e2e: sizes n=0,1,2,5,8 steps=0,1,3,4,2
// e2e: scalar c range(0.2,0.8)
// e2e: array u[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
void guarded(int n, int steps, double c, double *u) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = sin(u[i]) + c * u[i];
    if (n > 1)
      u[0] = 0.5 * u[1] + c;
    else
      c = c * 0.9;
  }
#pragma adsoac map
  for (int i = 0; i < n; i++)
    u[i] = u[i] * u[i];
  if (n > 2) {
    u[n - 1] = u[n - 2] * c;
    u[0] = u[0] + 1.0;
    u[0] = u[0] * u[n - 1]; // the same element twice: two overlapping saved sections
  }
}
