// File-scope arrays (language.md 6) as numerical codes keep their tables: const and not, a
// macro-sized 1-D table, a 2-D table (rows by a subscript, a row passed to a helper), a table
// sized by its initializer, an int table used as indices and in a bound, a pointer into a
// table, reads in parallel loops' bodies, in a sequential time loop and in the function's own
// code. Passive: no derivative flows into them.
// e2e: func tables
// e2e: sizes n=0,1,5,9
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func steps
// e2e: sizes n=0,1,4,7
// e2e: array u[n] range(-1,1)
// e2e: array out[2] range(-1,1)
#include <math.h>
#define NC 4

static const double coef[NC] = {0.5, -1.0, 2.0, 0.25};
static const double w2[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
double scale_tab[] = {1.5, -2.5};
static int perm[5] = {4, 2, 0, 1, 3};
static const int nterms[2] = {2, 3};
float fcoef[3] = {0.5f, 0.25f, 0.125f};

static double poly(const double *c, double x) { return c[0] + x * (c[1] + x * (c[2] + x * c[3])); }
static double dot3(const double *r, double a, double b, double c) { return r[0] * a + r[1] * b + r[2] * c; }

#pragma adsoac grad
double tables(int n, const double *x, double *y) {
  double s = 0.0;
  const double *c = coef + 1;
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double a = 0.0;
    for (int k = 0; k < nterms[i % 2]; k++) a += w2[i % 3][k] * x[i] * fcoef[k];
    y[i] = poly(coef, x[i]) * scale_tab[i % 2] + a * perm[i % 5] + dot3(w2[(i + 1) % 3], x[i], a, 1.0) * c[i % 3];
  }
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += coef[i % NC] * y[i] * y[i];
  return s * w2[2][1];
}

#pragma adsoac grad
void steps(int n, double *u, double *out) {
  double e = coef[0];
  for (int t = 0; t < nterms[1]; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) u[i] = sin(u[i]) * coef[t] + w2[t][i % 3] * 0.1;
#pragma adsoac reduce(+: e)
    for (int i = 0; i < n; i++) e += u[perm[i % 5] % (n > 0 ? n : 1)] * fcoef[t];
  }
  out[0] = e;
  out[1] = e * scale_tab[1];
}
