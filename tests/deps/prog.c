// tests/deps/prog.c: built with -I include -DFACTOR=3 (see run-deps.sh).
#include <math.h>
#include "cfg.h"
#pragma adsoac grad
void prog(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = x[i] * OFFSET;
}
