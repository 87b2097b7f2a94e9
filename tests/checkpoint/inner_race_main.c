// tests/checkpoint: no lost adjoint updates in the reverse of a sequential loop inside a
// parallel loop (inner_race.c), with n large enough that threads collide.
#include <stdio.h>
#include <stdlib.h>

double f_vjp(int n, int k, const double *a, double *a_bar, const double *x, double *x_bar,
             double ret_bar);
double g_vjp(int n, int k, const double *a, double *a_bar, const double *x, double *x_bar,
             double ret_bar);

int main(void) {
  enum { N = 400000, K = 4 };
  double a[K] = {1, 2, 3, 4}, ab[K] = {0};
  double *x = malloc(N * sizeof *x), *xb = calloc(N, sizeof *xb);
  for (int i = 0; i < N; i++) x[i] = 1.0;
  int bad = 0;
  for (int rep = 0; rep < 5; rep++) {
    for (int j = 0; j < K; j++) ab[j] = 0;
    f_vjp(N, K, a, ab, x, xb, 1.0);
    for (int j = 0; j < K; j++) {
      double want = j == 0 ? (double)N * (K + 1) : (double)N;
      if (ab[j] != want) {
        printf("FAIL: a_bar[%d] = %.17g, expected %.17g (lost updates)\n", j, ab[j], want);
        bad = 1;
      }
    }
  }
  // g: small and large sections of a_bar (a copy per thread; atomics)
  int ks[2] = {K, 70000}, ns[2] = {N, 64};
  for (int c = 0; c < 2; c++) {
    double *a2 = malloc((size_t)ks[c] * sizeof *a2), *ab2 = calloc((size_t)ks[c], sizeof *ab2);
    for (int j = 0; j < ks[c]; j++) a2[j] = 1.0 + j % 7;
    g_vjp(ns[c], ks[c], a2, ab2, x, xb, 1.0);
    for (int j = 0; j < ks[c]; j++)
      if (ab2[j] != (double)ns[c]) {
        printf("FAIL: g, k = %d: a_bar[%d] = %.17g, expected %d (lost updates)\n", ks[c], j,
               ab2[j], ns[c]);
        bad = 1;
        break;
      }
    free(a2);
    free(ab2);
  }
  free(x);
  free(xb);
  printf(bad ? "inner loop adjoints: FAIL\n" : "inner loop adjoints: ok (no lost updates)\n");
  return bad;
}
