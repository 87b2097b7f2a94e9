// An in-place update by a loop inside a function-level if (and a write in the other branch):
// the elements are saved before the if, where the branch that writes them runs.
// e2e: sizes n=0,1,4,7
// e2e: scalar t range(-1,1)
// e2e: array z[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
void if_inplace(int n, double t, double *z) {
  if (t > 0.0) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      z[i] = z[i] * z[i] + t;
  } else {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      z[i] = sin(z[i]) * t;
  }
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] = z[i] * cos(z[i]);
}
