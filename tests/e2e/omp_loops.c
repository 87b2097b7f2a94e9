// Kernels that are already OpenMP (language.md 11): only `#pragma adsoac grad` added. The loop
// directives are read as annotations: `omp parallel for` (a map), with reduction(+, -, *, min,
// max), private and firstprivate scalars, collapse(2) (two nested maps, a reduction over both),
// `omp for`, `omp simd`, `parallel for simd`, `omp loop`, clauses that change no meaning
// (schedule, num_threads, nowait), a directive as the unbraced body of another loop, and
// OpenMP 5's prefix sums: reduction(inscan, +: s) with `omp scan inclusive(s)` (the read after
// the update) and `exclusive(s)` (the read before it), a product scan; `omp atomic` updates
// of arrays (a particle deposition: h[bin[i]] += v, under an if, into a VLA parameter and a
// calloc'd array) and of shared scalars (+ and *), read as hist and reduce clauses; with a
// pointer parameter, the adsoac pragma saying the section beside the OpenMP directive.
// e2e: func lsq
// e2e: sizes n=0,1,5,9 m=1,2,3,4
// e2e: array A[n*m] range(-1,1)
// e2e: array x[m] range(-1,1)
// e2e: array b[n] range(-1,1)
// e2e: func softmax_stats
// e2e: sizes n=0,1,4,7
// e2e: array z[n] range(-2,2)
// e2e: array out[3] range(-1,1)
// e2e: func prefix
// e2e: sizes n=0,1,4,9
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array z[n] range(-1,1)
// e2e: func deposit
// e2e: sizes n=0,1,5,12 nb=1,2,3,4
// e2e: array bin[n] range(0,nb)
// e2e: array w[n] range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array h[nb] range(-1,1)
// e2e: array out[1] range(-1,1)
// e2e: func deposit_ptr
// e2e: sizes n=0,1,5,12 nb=1,2,3,4
// e2e: array bin[n] range(0,nb)
// e2e: array w[n] range(-1,1)
// e2e: array h[nb] range(-1,1)
// e2e: func grid
// e2e: sizes n=0,1,3,5 m=1,2,4,3
// e2e: array u[n*m] range(-1,1)
// e2e: array v[n*m] range(-1,1)
// e2e: array out[1] range(-1,1)
#include <math.h>
#include <stdlib.h>

#pragma adsoac grad
double lsq(int n, int m, const double *A, const double *x, const double *b) {
  double loss = 0.0, r;
  int i, j;
#pragma omp parallel for private(j, r) reduction(+: loss) schedule(static)
  for (i = 0; i < n; i++) {
    r = -b[i];
    for (j = 0; j < m; j++) r += A[i * m + j] * x[j];
    loss += 0.5 * r * r;
  }
  return loss;
}

#pragma adsoac grad
void softmax_stats(int n, const double *z, double *out) {
  double mx = -1e300, s = 0.0, p = 1.0, scale = 0.5;
#pragma omp parallel for reduction(max: mx)
  for (int i = 0; i < n; i++)
    if (z[i] > mx) mx = z[i];
#pragma omp parallel for simd reduction(-: s) firstprivate(scale) num_threads(2)
  for (int i = 0; i < n; i++) s -= exp(z[i] - mx) * scale;
#pragma omp simd reduction(*: p)
  for (int i = 0; i < n; i++) p *= 1.0 + 0.1 * z[i];
  out[0] = mx;
  out[1] = s;
  out[2] = p;
}

#pragma adsoac grad
void grid(int n, int m, double *u, const double *v, double *out) {
  double e = 0.0, lo = 1e300;
#pragma omp parallel for collapse(2) reduction(+: e) reduction(min: lo)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      e += u[i * m + j] * v[i * m + j];
      lo = fmin(lo, u[i * m + j] + v[i * m + j]);
    }
  for (int t = 0; t < 2; t++)
#pragma omp for nowait
    for (int i = 0; i < n * m; i++) u[i] = sin(u[i]) + v[i];
#pragma omp parallel loop
  for (int i = 0; i < n * m; i++) u[i] = u[i] * e;
  out[0] = e + (n * m > 0 ? lo : 0.0);
}

#pragma adsoac grad
void prefix(int n, const double *x, double *y, double *z) {
  double s = 0.0, p = 1.0;
#pragma omp parallel for simd reduction(inscan, +: s)
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
#pragma omp scan inclusive(s)
    y[i] = s;
  }
#pragma omp parallel for reduction(inscan, *: p)
  for (int i = 0; i < n; i++) {
    z[i] = p * y[i];
#pragma omp scan exclusive(p)
    p *= 0.5 + 0.25 * x[i];
  }
}

#pragma adsoac grad
void deposit(int n, int nb, const int *bin, const double *w, const double *x, double h[nb],
             double *out) {
  double total = 0.0, prod = 1.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = w[i] * x[i];
#pragma omp atomic
    h[bin[i]] += v;
#pragma omp atomic update
    total += v * v;
    if (x[i] > 0.5) {
#pragma omp atomic
      h[(bin[i] + 1) % nb] -= 0.5 * v;
    }
  }
  double *g = (double *)calloc(nb, sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    g[bin[i]] += x[i] * x[i];
#pragma omp atomic
    prod *= 1.0 + 0.1 * w[i];
  }
  double s = 0.0;
  for (int b = 0; b < nb; b++) s += g[b] * h[b];
  free(g);
  out[0] = total + prod + s;
}

#pragma adsoac grad
void deposit_ptr(int n, int nb, const int *bin, const double *w, double *h) {
#pragma omp parallel for
#pragma adsoac hist(+: h[0:nb])
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    h[bin[i]] += w[i] * w[i];
  }
}
