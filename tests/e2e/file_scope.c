// File-scope variables (language.md 6), as benchmark suites keep their sizes and constants:
// static and not, const and not, int and double, in loop bounds, conditions, sizes of
// scratch, coefficients in parallel loops' bodies and in the function's own code; passive
// (no derivative flows through them), read where the function starts.
// e2e: sizes n=0,1,5,9
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array z[n] range(-1,1)
#include <stdlib.h>

static int firstrow = 1, lastrow = 1;
static const double scale = 2.5;
double coef = -0.75;
int nsteps = 3;
float fcoef = 0.5f;
static const int width = 3;

#pragma adsoac grad
double interior(int n, const double *x, double *y) {
  double s = 0.0;
#pragma adsoac map
  for (int i = firstrow; i < n - lastrow; i++) y[i] = scale * x[i] * x[i] + coef * x[i - 1];
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    if (x[i] > coef) s += fcoef * x[i];
  return s * scale;
}

#pragma adsoac grad
void steps(int n, const double *x, double *y, double *z) {
  double *tmp = (double *)malloc(sizeof(double) * (size_t)(n * width + 1));
  for (int t = 0; t < nsteps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      for (int k = 0; k < width; k++) tmp[i * width + k] = y[i] * (k + scale) + x[i];
#pragma adsoac map
    for (int i = 0; i < n; i++) {
      double acc = 0.0;
      for (int k = 0; k < width; k++) acc += tmp[i * width + k] * coef;
      y[i] = acc / (width * scale);
    }
  }
  double c = coef * coef;
  if (nsteps > 2) c = c + fcoef;
#pragma adsoac map
  for (int i = 0; i < n; i++) z[i] = c * y[i];
  free(tmp);
}
