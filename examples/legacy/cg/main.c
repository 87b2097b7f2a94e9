// examples/legacy/cg/main.c: the NAS-CG-style kernel (cg.c, pragmas added) on a sparse
// symmetric matrix of order 64 built by the file's own makea. conj_grad is static and the
// file has its own main, as benchmark files do, so this driver includes the translation (its
// main renamed) and sets the file-scope sizes and bounds itself (naa, firstrow, ...).
// The objective J = <sz, z> + <sp, p> + <sq, q> + <sr, r> + 0.5 * rnorm (every output of the
// 25 iterations; the matrix has a small shift, so that they do not converge to rounding)
// seeds z_bar, p_bar, q_bar, r_bar and rnorm_bar; on exit x_bar and a_bar hold dJ/dx and
// dJ/da (the outputs' initial contents are overwritten before they are read: 0 there).
// Entries of dJ/dx and dJ/da are compared with central finite differences of the generated
// primal, then conj_grad_jvp along a direction against <gradient, direction>.
// Relative error: |vjp - fd| / max(|fd|, 1e-2).
#include <math.h>
#include <stdio.h>
#include <string.h>

#define main cg_main // (the benchmark's own)
#include "cg_grad.c"
#undef main

enum { NN = 64 };

static int colidx[NZ], rowstr[NA + 1];
static double a0[NZ], x0[NA + 2], sz[NA + 2], sp[NA + 2], sq[NA + 2], sr[NA + 2];
static double a[NZ], x[NA + 2], z[NA + 2], p[NA + 2], q[NA + 2], r[NA + 2];

// deterministic pseudo-random numbers in [lo, hi) (splitmix64)
static unsigned long long rng = 5;
static double unif(double lo, double hi) {
  unsigned long long t = (rng += 0x9E3779B97F4A7C15ull);
  t = (t ^ (t >> 30)) * 0xBF58476D1CE4E5B9ull;
  t = (t ^ (t >> 27)) * 0x94D049BB133111EBull;
  t ^= t >> 31;
  return lo + (hi - lo) * (double)(t >> 11) * 0x1.0p-53;
}

static double objective(double rnorm) {
  double v = 0.5 * rnorm;
  for (int j = 0; j < NN + 1; j++) v += sz[j] * z[j] + sp[j] * p[j] + sq[j] * q[j] + sr[j] * r[j];
  return v;
}

static double J(void) {
  double rnorm;
  memcpy(a, a0, sizeof a);
  memcpy(x, x0, sizeof x);
  conj_grad(colidx, rowstr, x, z, a, p, q, r, &rnorm);
  return objective(rnorm);
}

static double worst = 0;

static void check1(const char *name, double *v, int i, double g) {
  double h = 1e-6, vi = v[i];
  v[i] = vi + h;
  double fp = J();
  v[i] = vi - h;
  double fm = J();
  v[i] = vi;
  double fd = (fp - fm) / (2 * h), err = fabs(g - fd) / fmax(1e-2, fabs(fd));
  if (err > worst) worst = err;
  printf("  d/d%s[%4d]  vjp %16.9f   fd %16.9f   rel.err %.1e\n", name, i, g, fd, err);
}

static int fail(void) {
  printf("adsoac error: %s\n", adsoac_last_error());
  return 1;
}

static double x_bar[NA + 2], a_bar[NZ], z_bar[NA + 2], p_bar[NA + 2], q_bar[NA + 2], r_bar[NA + 2];
static double x_dot[NA + 2], a_dot[NZ], z_dot[NA + 2], p_dot[NA + 2], q_dot[NA + 2], r_dot[NA + 2];

int main(void) {
  naa = NN;
  firstrow = 0, lastrow = NN - 1;
  firstcol = 0, lastcol = NN - 1;
  tran = 314159265.0;
  amult = 1220703125.0;
  makea(naa, a0, colidx, rowstr);
  for (int i = 0; i < NN; i++) // (a smaller shift: the iterations do not converge to rounding)
    for (int k = rowstr[i]; k < rowstr[i + 1]; k++)
      if (colidx[k] == i) a0[k] -= SHIFT - 0.05;
  for (int j = 0; j < NN + 1; j++) {
    x0[j] = unif(0.5, 1.5);
    sz[j] = unif(-1, 1), sp[j] = unif(-1, 1), sq[j] = unif(-1, 1), sr[j] = unif(-1, 1);
  }

  double rnorm = 0, rnorm_bar = 0.5;
  memcpy(a, a0, sizeof a);
  memcpy(x, x0, sizeof x);
  memcpy(z_bar, sz, sizeof z_bar), memcpy(p_bar, sp, sizeof p_bar);
  memcpy(q_bar, sq, sizeof q_bar), memcpy(r_bar, sr, sizeof r_bar);
  conj_grad_vjp(colidx, rowstr, x, x_bar, z, z_bar, a, a_bar, p, p_bar, q, q_bar, r, r_bar,
                &rnorm, &rnorm_bar);
  if (adsoac_last_error()) return fail();
  double jv = objective(rnorm), j0 = J();
  printf("cg (NAS-CG style): order %d, %d nonzeros, rnorm %.6e, J %.12f (primal %.12f)\n", NN,
         nzz, rnorm, jv, j0);
  const int xi[] = {0, 1, 17, 40, NN - 1};
  for (unsigned k = 0; k < sizeof xi / sizeof xi[0]; k++) check1("x", x0, xi[k], x_bar[xi[k]]);
  const int ai[] = {0, 5, nzz / 3, nzz / 2 + 1, nzz - 1};
  for (unsigned k = 0; k < sizeof ai / sizeof ai[0]; k++) check1("a", a0, ai[k], a_bar[ai[k]]);

  // forward mode along a direction in x and a: the tangent of J must equal <gradient, dir>
  double dir = 0, rnorm_dot = 0;
  for (int j = 0; j < NN + 1; j++) dir += x_bar[j] * (x_dot[j] = unif(-1, 1));
  for (int k = 0; k < nzz; k++) dir += a_bar[k] * (a_dot[k] = unif(-1, 1));
  memcpy(a, a0, sizeof a);
  memcpy(x, x0, sizeof x);
  conj_grad_jvp(colidx, rowstr, x, x_dot, z, z_dot, a, a_dot, p, p_dot, q, q_dot, r, r_dot,
                &rnorm, &rnorm_dot);
  if (adsoac_last_error()) return fail();
  double tj = 0.5 * rnorm_dot;
  for (int j = 0; j < NN + 1; j++)
    tj += sz[j] * z_dot[j] + sp[j] * p_dot[j] + sq[j] * q_dot[j] + sr[j] * r_dot[j];
  double jerr = fabs(tj - dir) / fmax(1e-2, fabs(dir));
  if (jerr > worst) worst = jerr;
  printf("  jvp %16.9f   <vjp, dir> %16.9f   rel.err %.1e\n", tj, dir, jerr);

  int ok = fabs(jv - j0) <= 1e-9 * fmax(1.0, fabs(j0)) && worst < 1e-5;
  printf("worst relative error %.2e\n%s\n", worst,
         ok ? "gradient check: ok" : "gradient check: FAILED");
  return ok ? 0 : 1;
}
