// examples/legacy/jacobi2d/main.c: PolyBench-style jacobi-2d (jacobi2d.c, pragmas added) on a
// 40 x 40 grid (n = 40 of the arrays' N = 90) for 10 steps. The kernel is static and the
// file has its own main, as benchmark files do, so this driver includes the translation
// (its main renamed): static f, f_vjp and f_jvp are this file's functions then.
// The objective J = <s, A_final> + <r, B_final> seeds A_bar = s and B_bar = r; on exit they
// hold dJ/dA0 and dJ/dB0 (B's interior is overwritten before it is read: 0 there; its
// boundary passes through). Entries (interior, edge, corner) are compared with central
// finite differences of the generated primal (J is linear in A0 and B0: exact up to
// rounding), then kernel_jacobi_2d_jvp along a direction against <gradient, direction>.
// Relative error: |vjp - fd| / max(|fd|, 1e-2).
#include <math.h>
#include <stdio.h>
#include <string.h>

#define main jacobi2d_main // (the benchmark's own)
#include "jacobi2d_grad.c"
#undef main

enum { NS = 40, STEPS = 10 };

static DATA_TYPE A0[N][N], B0[N][N], s[N][N], r[N][N];

// deterministic pseudo-random numbers in [lo, hi) (splitmix64)
static unsigned long long rng = 11;
static double unif(double lo, double hi) {
  unsigned long long z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return lo + (hi - lo) * (double)(z >> 11) * 0x1.0p-53;
}

static double A[N][N], B[N][N];

static double J(void) {
  memcpy(A, A0, sizeof A);
  memcpy(B, B0, sizeof B);
  kernel_jacobi_2d(STEPS, NS, A, B);
  double v = 0;
  for (int i = 0; i < NS; i++)
    for (int j = 0; j < NS; j++) v += s[i][j] * A[i][j] + r[i][j] * B[i][j];
  return v;
}

static double worst = 0;

static void check1(const char *name, double p[N][N], int i, int j, double g) {
  double h = 0.5, v = p[i][j];
  p[i][j] = v + h;
  double fp = J();
  p[i][j] = v - h;
  double fm = J();
  p[i][j] = v;
  double fd = (fp - fm) / (2 * h), err = fabs(g - fd) / fmax(1e-2, fabs(fd));
  if (err > worst) worst = err;
  printf("  d/d%s[%2d][%2d]  vjp %16.9f   fd %16.9f   rel.err %.1e\n", name, i, j, g, fd, err);
}

static int fail(void) {
  printf("adsoac error: %s\n", adsoac_last_error());
  return 1;
}

static double A_bar[N][N], B_bar[N][N], A_dot[N][N], B_dot[N][N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A0[i][j] = unif(-1, 1), B0[i][j] = unif(-1, 1);
      s[i][j] = unif(-1, 1), r[i][j] = unif(-1, 1);
    }
  memcpy(A, A0, sizeof A);
  memcpy(B, B0, sizeof B);
  memcpy(A_bar, s, sizeof A_bar);
  memcpy(B_bar, r, sizeof B_bar);
  kernel_jacobi_2d_vjp(STEPS, NS, A, A_bar, B, B_bar);
  if (adsoac_last_error()) return fail();
  double jv = 0;
  for (int i = 0; i < NS; i++)
    for (int j = 0; j < NS; j++) jv += s[i][j] * A[i][j] + r[i][j] * B[i][j];
  double j0 = J();
  printf("jacobi2d (PolyBench style): %d x %d of %d x %d, %d steps, J %.12f (primal %.12f)\n",
         NS, NS, N, N, STEPS, jv, j0);
  const int at[][2] = {{0, 0}, {0, 7}, {1, 1}, {5, 9}, {20, 20}, {38, 12}, {39, 39}};
  for (unsigned k = 0; k < sizeof at / sizeof at[0]; k++) {
    check1("A0", A0, at[k][0], at[k][1], A_bar[at[k][0]][at[k][1]]);
    check1("B0", B0, at[k][0], at[k][1], B_bar[at[k][0]][at[k][1]]);
  }

  // forward mode along a direction: <s, A_dot> + <r, B_dot> must equal <gradient, dir>
  double dir = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A_dot[i][j] = unif(-1, 1), B_dot[i][j] = unif(-1, 1);
      if (i < NS && j < NS) dir += A_bar[i][j] * A_dot[i][j] + B_bar[i][j] * B_dot[i][j];
    }
  memcpy(A, A0, sizeof A);
  memcpy(B, B0, sizeof B);
  kernel_jacobi_2d_jvp(STEPS, NS, A, A_dot, B, B_dot);
  if (adsoac_last_error()) return fail();
  double tj = 0;
  for (int i = 0; i < NS; i++)
    for (int j = 0; j < NS; j++) tj += s[i][j] * A_dot[i][j] + r[i][j] * B_dot[i][j];
  double jerr = fabs(tj - dir) / fmax(1e-2, fabs(dir));
  if (jerr > worst) worst = jerr;
  printf("  jvp %16.9f   <vjp, dir> %16.9f   rel.err %.1e\n", tj, dir, jerr);

  int ok = fabs(jv - j0) <= 1e-9 * fmax(1.0, fabs(j0)) && worst < 1e-6;
  printf("worst relative error %.2e\n%s\n", worst,
         ok ? "gradient check: ok" : "gradient check: FAILED");
  return ok ? 0 : 1;
}
