// Timing driver for the legacy_stencil benchmark: examples/legacy/stencil/stencil.c as it is
// (run.sh takes the annotated file from there). Links three objects:
//   heat2d_seq                      stencil.c compiled by cc directly (-Dheat2d=heat2d_seq,
//                                   no OpenMP)
//   heat2d, heat2d_vjp, heat2d_jvp  adsoac's translation
// No hand-written adjoint: the hand columns show "-", and f_vjp is checked against finite
// differences of heat2d_seq instead (bench/README.md).
// Usage: legacy_stencil_bench [N [REPS]]. Prints one table row (after a '#' line saying what
// ran); warnings go to stderr.
// Problem size: a 256 x 256 grid (0.5 MB per array), N / 500000 time steps (the row's n
// column; 20 at N = 10^7, as in the example), u0 in [-1, 1), kappa in [0.05, 0.2). adsoac's
// vjp saves what each step overwrites (unew and u, three grids' worth per step: about 30 MB
// at the default).
// Every timed call first restores u (and, for the vjp, the seeds u_bar = 0, unew_bar = 0,
// ret_bar = 1): 3 grids of copying next to steps x 3 grids of work. kappa_bar accumulates.
#include "harness.h"

double heat2d_seq(int nx, int ny, int steps, double *u, const double *kappa, double *unew);
double heat2d(int nx, int ny, int steps, double *u, const double *kappa, double *unew);
double heat2d_vjp(int nx, int ny, int steps, double *u, double *u_bar, const double *kappa,
                  double *kappa_bar, double *unew, double *unew_bar, double ret_bar);
double heat2d_jvp(int nx, int ny, int steps, double *u, double *u_dot, const double *kappa,
                  const double *kappa_dot, double *unew, double *unew_dot, double *ret_dot);

enum { SIDE = 256, PER_STEP = 500000 };

typedef struct {
  int nx, ny, steps;
  double *u0, *kappa;
} Grid;

static void grid_make(Grid *g, int nx, int ny, int steps, unsigned seed) {
  g->nx = nx;
  g->ny = ny;
  g->steps = steps;
  g->u0 = bench_dalloc(nx * ny);
  g->kappa = bench_dalloc(nx * ny);
  bench_fill(g->u0, nx * ny, seed, -1.0, 1.0);
  bench_fill(g->kappa, nx * ny, seed + 1, 0.05, 0.2);
}

static void grid_free(Grid *g) { free(g->u0); free(g->kappa); }

// L = seed * nx*ny * mean + <su, u_final> + <sn, unew_final> from the sequential original
// (the mean scaled by the cell count: derivatives of order 1)
static double L_seq(const Grid *g, double seed, const double *su, const double *sn,
                    double *u, double *unew) {
  int nn = g->nx * g->ny;
  bench_dcopy(u, g->u0, nn);
  double v = seed * nn * heat2d_seq(g->nx, g->ny, g->steps, u, g->kappa, unew);
  return v + bench_inner(su, u, sn, unew, nn);
}

// Central difference of L_seq in p[j] against f_vjp's g. L is linear in u0 (step 0.5: exact,
// little rounding) and a polynomial of degree steps in one kappa (step 1e-5, on small grids
// only: the sum over a large grid rounds too coarsely for it).
static void check_fd_at(Bench *b, const char *label, const char *what, const Grid *gr,
                        double seed, const double *su, const double *sn, double *u,
                        double *unew, double *p, int j, double g, double h) {
  double v = p[j];
  p[j] = v + h; double fp = L_seq(gr, seed, su, sn, u, unew);
  p[j] = v - h; double fm = L_seq(gr, seed, su, sn, u, unew);
  p[j] = v;
  char buf[96];
  snprintf(buf, sizeof buf, "%s[%d] (finite difference)", what, j);
  bench_check_vjp_fd(b, bench_what(label, buf), g, fp, fm, h);
}

// All checks on one grid (label NULL: the timed input): final u, unew and the mean of every
// variant against the sequential C; f_vjp accumulates into kappa_bar, leaves the adjoint of
// the initial u in u_bar and 0 in unew_bar (unew is overwritten before it is read; its seed
// stays when steps = 0); f_vjp against finite differences at every cell (every = 1) or at nf
// cells of u0 (kappa: every = 1 only); f_jvp's final tangents against the adjoint identity.
static void check_all(Bench *b, const char *label, Grid *g, int every, int nf) {
  const double seed = 1.5; // not 1: a dropped seed must show
  int nn = g->nx * g->ny;
  double *us = bench_dalloc(nn), *ns = bench_dalloc(nn), *u = bench_dalloc(nn),
         *un = bench_dalloc(nn), *su = bench_dalloc(nn), *sn = bench_dalloc(nn),
         *ub = bench_dalloc(nn), *nb = bench_dalloc(nn), *k0 = bench_dalloc(nn),
         *kb = bench_dalloc(nn), *kz = bench_dalloc(nn), *ud = bench_dalloc(nn),
         *nd = bench_dalloc(nn), *kd = bench_dalloc(nn), *want = bench_dalloc(nn);
  bench_fill(su, nn, 40, 0.5, 1.5);
  bench_fill(sn, nn, 41, 0.5, 1.5);
  bench_fill(ns, nn, 42, -1.0, 1.0); // unew's initial contents: never read when steps > 0
  bench_dcopy(us, g->u0, nn);
  double m_seq = heat2d_seq(g->nx, g->ny, g->steps, us, g->kappa, ns);
  bench_dcopy(u, g->u0, nn);
  bench_fill(un, nn, 42, -1.0, 1.0);
  double m = heat2d(g->nx, g->ny, g->steps, u, g->kappa, un);
  bench_check_scalar(b, bench_what(label, "primal heat2d vs sequential C"), m, m_seq, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "primal u vs sequential C"), u, us, nn, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "primal unew vs sequential C"), un, ns, nn, BENCH_RTOL);
  // f_vjp: kappa_bar from initial values in [-1, 1), then from zero
  bench_fill(k0, nn, 43, -1.0, 1.0);
  bench_dcopy(kb, k0, nn);
  bench_dcopy(u, g->u0, nn);
  bench_fill(un, nn, 42, -1.0, 1.0);
  bench_dcopy(ub, su, nn);
  bench_dcopy(nb, sn, nn);
  m = heat2d_vjp(g->nx, g->ny, g->steps, u, ub, g->kappa, kb, un, nb, seed * nn);
  bench_check_scalar(b, bench_what(label, "heat2d_vjp result vs sequential C"), m, m_seq, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "heat2d_vjp u vs sequential C"), u, us, nn, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "heat2d_vjp unew vs sequential C"), un, ns, nn, BENCH_RTOL);
  for (int i = 0; i < nn; i++) want[i] = g->steps > 0 ? 0.0 : sn[i];
  bench_check_array(b, bench_what(label, "heat2d_vjp unew_bar on exit"), nb, want, nn, BENCH_RTOL);
  memset(kz, 0, (size_t)nn * sizeof *kz);
  bench_dcopy(u, g->u0, nn);
  bench_dcopy(ub, su, nn);
  bench_dcopy(nb, sn, nn);
  heat2d_vjp(g->nx, g->ny, g->steps, u, ub, g->kappa, kz, un, nb, seed * nn);
  for (int i = 0; i < nn; i++) want[i] = k0[i] + kz[i];
  bench_check_array(b, bench_what(label, "heat2d_vjp kappa_bar accumulates"), kb, want, nn, BENCH_RTOL);
  // f_vjp (u_bar: the adjoint of the initial u; kz from zero) against finite differences
  for (int k = 0; k < (every ? nn : nf); k++) {
    int j = every ? k : (int)((long)k * (nn - 1) / (nf > 1 ? nf - 1 : 1));
    check_fd_at(b, label, "d/du0", g, seed, su, sn, u, un, g->u0, j, ub[j], 0.5);
    if (every) check_fd_at(b, label, "d/dkappa", g, seed, su, sn, u, un, g->kappa, j, kz[j], 1e-5);
  }
  // f_jvp: seed*nn*mean_dot + <su, u_dot> + <sn, unew_dot> (final tangents) =
  // <u_bar, u_dot0> + <kappa_bar, kappa_dot> + <unew_bar, unew_dot0>
  bench_fill(ud, nn, 44, -1.0, 1.0);
  bench_fill(nd, nn, 45, -1.0, 1.0);
  bench_fill(kd, nn, 46, -1.0, 1.0);
  double want_dot = bench_inner(ub, ud, kz, kd, nn) + bench_inner(nb, nd, NULL, NULL, nn);
  double m_dot = 0.0;
  bench_dcopy(u, g->u0, nn);
  m = heat2d_jvp(g->nx, g->ny, g->steps, u, ud, g->kappa, kd, un, nd, &m_dot);
  bench_check_scalar(b, bench_what(label, "heat2d_jvp result vs sequential C"), m, m_seq, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "heat2d_jvp <seeds, final tangents> vs <vjp adjoints, initial tangents>"),
                     seed * nn * m_dot + bench_inner(su, ud, sn, nd, nn), want_dot, BENCH_RTOL);
  free(us); free(ns); free(u); free(un); free(su); free(sn); free(ub); free(nb); free(k0);
  free(kb); free(kz); free(ud); free(nd); free(kd); free(want);
}

static void check_small(Bench *b, int nx, int ny, int steps, unsigned seed) {
  Grid g;
  char label[64];
  grid_make(&g, nx, ny, steps, seed);
  snprintf(label, sizeof label, "%d x %d, %d steps", nx, ny, steps);
  check_all(b, label, &g, 1, 0);
  grid_free(&g);
}

// the timed calls: u (and the vjp's seeds) restored first
static Grid G;
static double *tu, *tun, *tub, *tnb, *tkb;

static double run_seq(void) {
  bench_dcopy(tu, G.u0, SIDE * SIDE);
  return heat2d_seq(SIDE, SIDE, G.steps, tu, G.kappa, tun);
}
static double run_primal(void) {
  bench_dcopy(tu, G.u0, SIDE * SIDE);
  return heat2d(SIDE, SIDE, G.steps, tu, G.kappa, tun);
}
static double run_vjp(void) {
  bench_dcopy(tu, G.u0, SIDE * SIDE);
  memset(tub, 0, (size_t)SIDE * SIDE * sizeof *tub);
  memset(tnb, 0, (size_t)SIDE * SIDE * sizeof *tnb);
  return heat2d_vjp(SIDE, SIDE, G.steps, tu, tub, G.kappa, tkb, tun, tnb, 1.0);
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "legacy_stencil", argc, argv);
  int steps = b.n / PER_STEP < 1 ? 1 : b.n / PER_STEP;
  b.n = steps;
  grid_make(&G, SIDE, SIDE, steps, 30);
  printf("# legacy_stencil: %d x %d grid, %d steps (examples/legacy/stencil/stencil.c)\n", SIDE,
         SIDE, steps);
  fflush(stdout);

  // ---- checks (once, before timing) ----
  check_all(&b, NULL, &G, 0, 4);
  check_small(&b, 3, 3, 1, 31);
  check_small(&b, 4, 5, 3, 32);
  check_small(&b, 6, 4, 0, 33);
  check_small(&b, 8, 7, 12, 34);

  // ---- timing ----
  int nn = SIDE * SIDE;
  tu = bench_dalloc(nn); tun = bench_dalloc(nn); tub = bench_dalloc(nn);
  tnb = bench_dalloc(nn); tkb = bench_dalloc(nn);
  memset(tun, 0, (size_t)nn * sizeof *tun);
  memset(tkb, 0, (size_t)nn * sizeof *tkb);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);

  free(tu); free(tun); free(tub); free(tnb); free(tkb);
  grid_free(&G);
  return b.warnings ? 3 : 0;
}
