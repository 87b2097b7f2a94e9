// MPI_Bcast and MPI_Allgather, collectives in a time loop, float buffers and int counts
// (language.md §10).
// e2e: mpi 1,2,3
// e2e: sizes n=1,4
// e2e: array x[n] range(-1,1)
// e2e: array p[3] range(-1,1)
// e2e: array a[n] range(0.5,1.5)
// e2e: int T = 3
// e2e: array xf[n] range(-1,1)
#include <math.h>
#include <mpi.h>

// parameters broadcast from the root (rank 0's p wins; the others' copies are overwritten:
// their p_bar ends 0), then a loss on each rank's data
#pragma adsoac grad
double bcast_params(int n, double *p, const double *x, MPI_Comm comm) {
  MPI_Bcast(p, 3, MPI_DOUBLE, 0, comm);
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double r = p[0] + p[1] * x[i] + p[2] * x[i] * x[i];
    s += r * r;
  }
  return s;
}

// a scalar broadcast from the last rank, assigned only there
#pragma adsoac grad
double bcast_scalar(int n, const double *x, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double alpha;
  if (rank == size - 1) alpha = x[0] * x[0] + 1.0;
  MPI_Bcast(&alpha, 1, MPI_DOUBLE, size - 1, comm);
  return alpha * x[n - 1];
}

// scalars the root assigns in a nested if (its condition holds on the root: x is in (-1, 1)),
// and in two ifs in turn (the later one's value where it ran)
#pragma adsoac grad
double bcast_nested(int n, const double *x, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double a, b;
  if (rank == 0) {
    if (x[0] < 2.0) a = x[0] * 3.0;
  }
  if (rank == 0) b = x[0];
  if (rank == 0 && n > 2) b = x[n - 1] * x[n - 1];
  MPI_Bcast(&a, 1, MPI_DOUBLE, 0, comm);
  MPI_Bcast(&b, 1, MPI_DOUBLE, 0, comm);
  return a * b + x[n - 1];
}

// every rank's shard gathered on every rank, then a weighted sum over all of them
#pragma adsoac grad
double gather_all(int n, const double *x, MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  double all[64];
  MPI_Allgather(x, n, MPI_DOUBLE, all, n, MPI_DOUBLE, comm);
  double s = 0.0;
  for (int k = 0; k < n * size; k++)
    s += (k + 1) * sin(all[k]);
  return s;
}

// a time loop whose every step combines a dot product over the ranks (a solver's pattern);
// the count of points travels as an int
#pragma adsoac grad
void power_steps(int n, int T, double *a, const double *x, MPI_Comm comm) {
  int nloc = n, ntot;
  MPI_Allreduce(&nloc, &ntot, 1, MPI_INT, MPI_SUM, comm);
  for (int t = 0; t < T; t++) {
    double d = 0.0;
#pragma adsoac reduce(+: d)
    for (int i = 0; i < n; i++)
      d += a[i] * x[i];
    double g;
    MPI_Allreduce(&d, &g, 1, MPI_DOUBLE, MPI_SUM, comm);
#pragma adsoac map
    for (int i = 0; i < n; i++)
      a[i] = a[i] + 0.1 * tanh(g / ntot) * x[i];
  }
}

// float buffers
#pragma adsoac grad
float float_sum(int n, const float *xf, MPI_Comm comm) {
  float local = 0.0f;
#pragma adsoac reduce(+: local)
  for (int i = 0; i < n; i++)
    local += xf[i] * xf[i];
  float m[2] = {local, -local}, r[2];
  MPI_Allreduce(m, r, 2, MPI_FLOAT, MPI_MAX, comm);
  return r[0] * 2.0f + r[1];
}
