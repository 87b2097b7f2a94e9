// An element written before a sequential loop that does not write it is read back after the
// loop (forwarding survives the loop; it was refused), and one written in one branch of an if
// is read in the other branch as the iteration found it.
// e2e: sizes n=0,1,2,7
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
void read_after_loop(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * y[i];
    double t = 0;
    for (int k = 0; k < 3; k++)
      t = t + sin(x[i] * k);
    y[i] = y[i] * t;
    if (x[i] > 0.2) y[i] = y[i] + 1.0;
    else y[i] = cos(y[i]);
  }
}
