// Functions defined in a project header (language.md 6: its static inline functions are
// known): called from a reduce's body, a map's, and at the function's level; a header macro
// and struct type among them; one with an early return.
// e2e: sizes n=0,1,3,6
// e2e: array x[n] range(-1.5,1.5)
// e2e: array y[n] range(-1,1)
// e2e: scalar a range(-1,1)
#include "header_fns.h"

#pragma adsoac grad
double header_fns(int n, const double *x, double *y, double a) {
  HfLin l = {a, 0.25};
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += hf_sq(hf_apply(l, x[i]));
  hf_axpy(n, a, x, y);
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = hf_clamp(y[i] * HF_SCALE);
  return s;
}
