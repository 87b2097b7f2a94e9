// Pointers as legacy C uses them (language.md §6): local views into arrays (A + i*m, &x[k]),
// slices passed to helpers, *p and p[k] reads and writes, a pointer stepping through an array,
// the address of a local scalar or struct passed to a helper that writes through it, *err = e
// at the function's level, malloc/calloc/free temporaries, memcpy and memset.
// e2e: sizes n=0,1,3,6,5 m=1,2,4,1,3
// e2e: array A[n*m] range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array err[1] range(-1,1)
#include <stdlib.h>
#include <string.h>

typedef struct {
  double a, b;
} Pair;

static double dot(int m, const double *u, const double *v) {
  double s = 0;
  for (int j = 0; j < m; j++) s += u[j] * v[j];
  return s;
}

static void square_into(double v, double *out) { *out = v * v; }

static void pair_of(double v, Pair *p) {
  p->a = v + 1.0;
  p->b = p->a * v;
}

static double first_plus_second(const double *p) { return p[0] + 2.0 * *(p + 1); }

#pragma adsoac grad
void rows(int n, int m, const double *A, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    const double *row = A + i * m;         // a view of row i
    double s = 0;
    for (int j = 0; j < m; j++) s += row[j] * row[j];
    double t;
    square_into(s, &t);                    // writes t through a pointer
    Pair p;
    pair_of(x[i], &p);
    y[i] = t + dot(m, &A[i * m], row) * p.b + (m > 1 ? first_plus_second(row) : *row);
  }
}

#pragma adsoac grad
void walk(int n, const double *x, double *err) {
  const double *p = x;                     // steps through x
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += *p * *p;
    p++;
  }
  p = x + n - 1;
  for (int i = 0; i < n; i += 2, p -= 2) s += 0.5 * p[0];
  *err = s;
}

#pragma adsoac grad
void moves(int n, const double *x, double *y) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    acc += 0.25 * *x;
    x++;                                   // the parameter itself moves
  }
  for (int i = 0; i < n; i++) y[i] = y[i] * acc;
}

#pragma adsoac grad
double temps(int n, const double *x, double *y) {
  double *t = (double *)malloc(n * sizeof(double));
  double *z = calloc(n, sizeof *z);
#pragma adsoac map
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  memcpy(z, t, n * sizeof(double));
  memset(t, 0, sizeof(double) * n);
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += z[i] * x[i] + t[i];
  memcpy(y, z, (size_t)n * sizeof(double));
  free(t);
  free(z);
  return s;
}

// a state copied between the steps of a time loop, through a temporary
#pragma adsoac grad
void steps(int n, int m, const double *x, double *y) {
  double *prev = malloc(sizeof(double) * n);
  memcpy(prev, x, n * sizeof *prev);
  for (int t = 0; t < m; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) y[i] = 0.5 * prev[i] + 0.25 * prev[i] * prev[i];
    memcpy(prev, y, n * sizeof(double));
  }
  free(prev);
}
