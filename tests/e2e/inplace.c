// In-place updates across loops (the in/out convention of language.md §2.1): a loop reads y
// in reverse order, the next overwrites y from its old values, the last reads the new y; the
// reverse sweep needs the old y for the first two loops (saved and swapped back).
// e2e: sizes n=0,1,2,7,33
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array z[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
void inplace(int n, const double *x, double *y, double *z) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] = y[n - 1 - i] * x[i];
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = y[i] * y[i] + sin(x[i]);
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] += y[i] * z[i];
}
