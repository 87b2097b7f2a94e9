// Timing driver for the legacy_jacobi2d benchmark: examples/legacy/jacobi2d/jacobi2d.c as it
// is (run.sh takes the annotated file from there; its static kernel and its main are made
// global and local by objcopy). Links three objects:
//   kernel_jacobi_2d_seq                     jacobi2d.c compiled by cc directly (no OpenMP)
//   kernel_jacobi_2d, _vjp, _jvp             adsoac's translation
// No hand-written adjoint: the hand columns show "-", and f_vjp is checked against finite
// differences of kernel_jacobi_2d_seq instead (bench/README.md).
// Usage: legacy_jacobi2d_bench [N [REPS]]. Prints one table row (after a '#' line saying
// what ran); warnings go to stderr.
// Problem size: the file's N = 90 (arrays A[90][90], n = 90), N / 100000 time steps (the
// row's n column; 100 at N = 10^7). adsoac's vjp saves what each sweep overwrites (two
// interiors per step: about 13 MB at the default).
// Every timed call first restores A and B (and, for the vjp, the seeds A_bar = B_bar = 1).
#include "harness.h"

#define NS 90
typedef double Grid[NS][NS];

void kernel_jacobi_2d_seq(int tsteps, int n, double A[NS][NS], double B[NS][NS]);
void kernel_jacobi_2d(int tsteps, int n, double A[NS][NS], double B[NS][NS]);
void kernel_jacobi_2d_vjp(int tsteps, int n, double A[NS][NS], double A_bar[NS][NS],
                          double B[NS][NS], double B_bar[NS][NS]);
void kernel_jacobi_2d_jvp(int tsteps, int n, double A[NS][NS], double A_dot[NS][NS],
                          double B[NS][NS], double B_dot[NS][NS]);

enum { PER_STEP = 100000, NN = NS * NS };

static Grid A0, B0, A, B, As, Bs, Ab, Bb, Ad, Bd, sa, sb;

// L = <sa, A_final> + <sb, B_final> of the sequential original on n x n of A0, B0
static double L_seq(int steps, int n) {
  memcpy(As, A0, sizeof As);
  memcpy(Bs, B0, sizeof Bs);
  kernel_jacobi_2d_seq(steps, n, As, Bs);
  return bench_inner(&sa[0][0], &As[0][0], &sb[0][0], &Bs[0][0], NN);
}

static void check_all(Bench *b, const char *label, int steps, int n, unsigned seed) {
  bench_fill(&A0[0][0], NN, seed, -1.0, 1.0);
  bench_fill(&B0[0][0], NN, seed + 1, -1.0, 1.0);
  bench_fill(&sa[0][0], NN, seed + 2, 0.5, 1.5);
  bench_fill(&sb[0][0], NN, seed + 3, 0.5, 1.5);
  L_seq(steps, n);
  memcpy(A, A0, sizeof A);
  memcpy(B, B0, sizeof B);
  kernel_jacobi_2d(steps, n, A, B);
  bench_check_array(b, bench_what(label, "primal A vs sequential C"), &A[0][0], &As[0][0], NN, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "primal B vs sequential C"), &B[0][0], &Bs[0][0], NN, BENCH_RTOL);
  memcpy(A, A0, sizeof A);
  memcpy(B, B0, sizeof B);
  memcpy(Ab, sa, sizeof Ab);
  memcpy(Bb, sb, sizeof Bb);
  kernel_jacobi_2d_vjp(steps, n, A, Ab, B, Bb);
  bench_check_array(b, bench_what(label, "vjp A vs sequential C"), &A[0][0], &As[0][0], NN, BENCH_RTOL);
  bench_check_array(b, bench_what(label, "vjp B vs sequential C"), &B[0][0], &Bs[0][0], NN, BENCH_RTOL);
  // f_vjp against central differences (L is linear: step 0.5) at cells across the grid
  for (int k = 0; k < 9; k++) {
    int i = (k * 37) % n, j = (k * 53 + 1) % n;
    for (int w = 0; w < 2; w++) {
      Grid *p = w ? &B0 : &A0;
      double g = w ? Bb[i][j] : Ab[i][j], v = (*p)[i][j], h = 0.5;
      (*p)[i][j] = v + h; double fp = L_seq(steps, n);
      (*p)[i][j] = v - h; double fm = L_seq(steps, n);
      (*p)[i][j] = v;
      char buf[96];
      snprintf(buf, sizeof buf, "d/d%s0[%d][%d] (finite difference)", w ? "B" : "A", i, j);
      bench_check_vjp_fd(b, bench_what(label, buf), g, fp, fm, h);
    }
  }
  // f_jvp: <sa, A_dot> + <sb, B_dot> (final tangents) = <A_bar, A_dot0> + <B_bar, B_dot0>
  bench_fill(&Ad[0][0], NN, seed + 4, -1.0, 1.0);
  bench_fill(&Bd[0][0], NN, seed + 5, -1.0, 1.0);
  double want = bench_inner(&Ab[0][0], &Ad[0][0], &Bb[0][0], &Bd[0][0], NN);
  memcpy(A, A0, sizeof A);
  memcpy(B, B0, sizeof B);
  kernel_jacobi_2d_jvp(steps, n, A, Ad, B, Bd);
  bench_check_array(b, bench_what(label, "jvp A vs sequential C"), &A[0][0], &As[0][0], NN, BENCH_RTOL);
  bench_check_scalar(b, bench_what(label, "jvp <seeds, final tangents> vs <vjp adjoints, initial tangents>"),
                     bench_inner(&sa[0][0], &Ad[0][0], &sb[0][0], &Bd[0][0], NN), want, BENCH_RTOL);
}

static int T;
static double run_seq(void) {
  memcpy(A, A0, sizeof A), memcpy(B, B0, sizeof B);
  kernel_jacobi_2d_seq(T, NS, A, B);
  return A[1][1];
}
static double run_primal(void) {
  memcpy(A, A0, sizeof A), memcpy(B, B0, sizeof B);
  kernel_jacobi_2d(T, NS, A, B);
  return A[1][1];
}
static double run_vjp(void) {
  memcpy(A, A0, sizeof A), memcpy(B, B0, sizeof B);
  for (int i = 0; i < NS; i++)
    for (int j = 0; j < NS; j++) Ab[i][j] = Bb[i][j] = 1.0;
  kernel_jacobi_2d_vjp(T, NS, A, Ab, B, Bb);
  return Ab[1][1];
}

int main(int argc, char **argv) {
  Bench b;
  bench_args(&b, "legacy_jacobi2d", argc, argv);
  T = b.n / PER_STEP < 1 ? 1 : b.n / PER_STEP;
  b.n = T;
  printf("# legacy_jacobi2d: %d x %d grid, %d steps (examples/legacy/jacobi2d/jacobi2d.c)\n", NS,
         NS, T);
  fflush(stdout);
  check_all(&b, "90 x 90, 5 steps", 5, NS, 50);
  check_all(&b, "7 x 7, 3 steps", 3, 7, 51);
  check_all(&b, "2 x 2, 2 steps", 2, 2, 52);
  check_all(&b, "12 x 12, 0 steps", 0, 12, 53);
  bench_fill(&A0[0][0], NN, 60, -1.0, 1.0);
  bench_fill(&B0[0][0], NN, 61, -1.0, 1.0);
  double t_seq, t_pri, t_vjp;
  BENCH_TIME(&b, t_seq, run_seq());
  BENCH_TIME(&b, t_pri, run_primal());
  BENCH_TIME(&b, t_vjp, run_vjp());
  bench_row(&b, t_seq, t_pri, t_vjp, BENCH_NO_HAND);
  return b.warnings ? 3 : 0;
}
