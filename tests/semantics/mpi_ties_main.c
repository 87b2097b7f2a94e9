// tests/semantics/mpi_ties_main.c: MPI_MAX, MPI_MIN and MPI_PROD allreduces (mpi_ties.c)
// differentiated exactly: a tie's adjoint and tangent go to the lowest rank of the tie, a
// product's follow §7's zeros (one zero: the product of the others; two or more: 0), every
// rank seeding y with its own y_bar (their sum is the seed of the replicated result).
#include <math.h>
#include <mpi.h>
#include <stdio.h>

void allmax_vjp(const double *x, double *x_bar, double *y, double *y_bar, MPI_Comm comm);
void allmax_jvp(const double *x, const double *x_dot, double *y, double *y_dot, MPI_Comm comm);
void allmin_vjp(const double *x, double *x_bar, double *y, double *y_bar, MPI_Comm comm);
void allmin_jvp(const double *x, const double *x_dot, double *y, double *y_dot, MPI_Comm comm);
void allprod_vjp(const double *x, double *x_bar, double *y, double *y_bar, MPI_Comm comm);
void allprod_jvp(const double *x, const double *x_dot, double *y, double *y_dot, MPI_Comm comm);

typedef void Vjp(const double *, double *, double *, double *, MPI_Comm);
typedef void Jvp(const double *, const double *, double *, double *, MPI_Comm);

static int me, p, failures, checks;

static void expect(const char *what, int j, double got, double want) {
  checks++;
  if (got == want) return;
  failures++;
  printf("FAIL rank %d of %d: %s[%d]: got %.17g, expected %.17g\n", me, p, what, j, got, want);
}

// x: this rank's inputs; xb: the x_bar each must get; yd: the y_dot every rank must get
// (x_dot: 10 * rank + j + 1)
static void check(const char *name, Vjp *vjp, Jvp *jvp, const double *x, const double *xb,
                  const double *yd) {
  double x_bar[3] = {0, 0, 0}, y[3], y_bar[3], x_dot[3], y_dot[3];
  for (int j = 0; j < 3; j++) y_bar[j] = me + 1, x_dot[j] = 10 * me + j + 1;
  vjp(x, x_bar, y, y_bar, MPI_COMM_WORLD);
  jvp(x, x_dot, y, y_dot, MPI_COMM_WORLD);
  char what[64];
  for (int j = 0; j < 3; j++) {
    snprintf(what, sizeof what, "%s x_bar", name);
    expect(what, j, x_bar[j], xb[j]);
    snprintf(what, sizeof what, "%s y_dot", name);
    expect(what, j, y_dot[j], yd[j]);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double s = p * (p + 1) / 2.0; // the sum of the ranks' seeds
  int hi = p > 1 ? 1 : 0;       // the lowest rank of ranks 1 .. p-1 (rank 0 alone: itself)
  // [0] a tie on every rank: rank 0's; [1] the rank's own value: the last rank's (max) or rank
  // 0's (min); [2] a tie among ranks 1 .. p-1 (rank 0 away from it)
  double xmax[3] = {2.0, me, me ? 5.0 : 1.0}, xmin[3] = {2.0, me, me ? 1.0 : 5.0};
  double bmax[3] = {me == 0 ? s : 0, me == p - 1 ? s : 0, me == hi ? s : 0};
  double dmax[3] = {1, 10 * (p - 1) + 2, 10 * hi + 3};
  double bmin[3] = {me == 0 ? s : 0, me == 0 ? s : 0, me == hi ? s : 0};
  double dmin[3] = {1, 2, 10 * hi + 3};
  check("max", allmax_vjp, allmax_jvp, xmax, bmax, dmax);
  check("min", allmin_vjp, allmin_jvp, xmin, bmin, dmin);
  // product: [0] no zero (2 on every rank); [1] one zero, on rank 0 (3 elsewhere); [2] a zero
  // on every rank (one zero only with one rank)
  double xp[3] = {2.0, me ? 3.0 : 0.0, 0.0};
  double bp[3] = {s * pow(2, p - 1), me == 0 ? s * pow(3, p - 1) : 0, p == 1 ? s : 0};
  double d0 = 0; // the product rule: x_dot of each rank times the others' product
  for (int r = 0; r < p; r++) d0 += (10 * r + 1) * pow(2, p - 1);
  double dp[3] = {d0, 2 * pow(3, p - 1), p == 1 ? 3 : 0};
  check("prod", allprod_vjp, allprod_jvp, xp, bp, dp);
  int bad = 0;
  MPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("MPI rules across %d ranks: %d checks a rank, %d failures\n", p, checks, bad);
  MPI_Finalize();
  return bad != 0;
}
