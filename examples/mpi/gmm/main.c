// examples/mpi/gmm/main.c: the Gaussian mixture's objective and gradient over N points
// sharded across the ranks (mpirun -np P ./example_mpi_gmm).  Every rank generates the same
// points and parameters and keeps its shard of the points; rank 0 prints the objective, the
// gradient (the sum over the ranks of each rank's adjoints of its parameter copies), and a
// check of that gradient against central differences of the whole multi-rank objective and
// against f_jvp.  The printed values agree across numbers of ranks to rounding
// (examples/mpi/run.sh compares them).
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

double gmm_nll(int n, int D, int K, const double *x, const double *mu, const double *lv,
               const double *a, MPI_Comm comm);
double gmm_nll_vjp(int n, int D, int K, const double *x, const double *mu, double *mu_bar,
                   const double *lv, double *lv_bar, const double *a, double *a_bar,
                   MPI_Comm comm, double ret_bar);
double gmm_nll_jvp(int n, int D, int K, const double *x, const double *mu, const double *mu_dot,
                   const double *lv, const double *lv_dot, const double *a, const double *a_dot,
                   MPI_Comm comm, double *ret_dot);

enum { N = 3000, D = 4, K = 5, NP = K * D + K * D + K };

static double unif(unsigned long long *s) { // [0, 1)
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(*s >> 11) * 0x1.0p-53;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  // the points: K clusters; the parameters: one vector theta = (mu, lv, a)
  static double x[N * D], theta[NP], g[NP], v[NP], tp[NP];
  unsigned long long s = 42;
  for (int i = 0; i < N; i++)
    for (int d = 0; d < D; d++) x[i * D + d] = (i % K) - 2.0 + 0.7 * (unif(&s) - 0.5) * (d + 1);
  for (int j = 0; j < NP; j++) theta[j] = unif(&s) - 0.5, v[j] = unif(&s) - 0.5;
  double *mu = theta, *lv = theta + K * D, *a = theta + 2 * K * D;
  int lo = (int)((long)N * rank / P), hi = (int)((long)N * (rank + 1) / P), n = hi - lo;
  const double *xs = x + (size_t)lo * D;

  double f = gmm_nll(n, D, K, xs, mu, lv, a, MPI_COMM_WORLD);
  // f_vjp with the objective seeded on rank 0 alone; the shared parameters' gradient is the
  // sum of the ranks' adjoints of their copies
  double bar[NP] = {0};
  double fv = gmm_nll_vjp(n, D, K, xs, mu, bar, lv, bar + K * D, a, bar + 2 * K * D,
                          MPI_COMM_WORLD, rank == 0 ? 1.0 : 0.0);
  MPI_Allreduce(bar, g, NP, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // f_jvp along v (every rank's copy moves alike): the derivative of the shared value
  double fdot = 0.0;
  double fj = gmm_nll_jvp(n, D, K, xs, mu, v, lv, v + K * D, a, v + 2 * K * D, MPI_COMM_WORLD,
                          &fdot);
  // central differences of the whole program at a few entries (every rank perturbs its copy)
  int bad = fv != f || fj != f;
  double worst = 0.0;
  for (int j = 0; j < NP; j += 7) {
    double h = 1e-5;
    for (int k = 0; k < NP; k++) tp[k] = theta[k];
    tp[j] = theta[j] + h;
    double fp = gmm_nll(n, D, K, xs, tp, tp + K * D, tp + 2 * K * D, MPI_COMM_WORLD);
    tp[j] = theta[j] - h;
    double fm = gmm_nll(n, D, K, xs, tp, tp + K * D, tp + 2 * K * D, MPI_COMM_WORLD);
    double fd = (fp - fm) / (2 * h), err = fabs(fd - g[j]) / fmax(1e-3, fabs(fd));
    if (err > worst) worst = err;
  }
  double gv = 0.0;
  for (int j = 0; j < NP; j++) gv += g[j] * v[j];
  double ierr = fabs(gv - fdot) / fmax(1e-12, fabs(gv));
  bad |= worst > 1e-6 || ierr > 1e-10;
  if (rank == 0) {
    printf("ranks %d: N=%d points, %d per rank at most; D=%d, K=%d\n", P, N, (N + P - 1) / P, D, K);
    printf("objective %.15e\n", f);
    for (int j = 0; j < NP; j += 9) printf("gradient[%2d] %.15e\n", j, g[j]);
    printf("finite differences: worst relative difference %.2e; f_jvp: %.2e\n", worst, ierr);
    printf("gradient check: %s\n", bad ? "FAILED" : "ok");
  }
  MPI_Finalize();
  return bad;
}
