// MPI_Allreduce in marked functions (language.md §10): each rank holds a shard, the ranks
// combine partial results; the whole multi-rank program is differentiated.
// e2e: mpi 1,2,3
// e2e: sizes n=0,1,5
// e2e: array x[n] range(-1,1)
// e2e: array w[n] range(0.5,1.5)
// e2e: array y[4] range(-1,1) fill(i == 0 ? 0.25 : r)
// e2e: array v[3] range(-2,2)
#include <math.h>
#include <mpi.h>

// a partial sum, combined in a scalar (&local, &total)
#pragma adsoac grad
double sum_scalar(int n, const double *x, const double *w, MPI_Comm comm) {
  double local = 0.0;
#pragma adsoac reduce(+: local)
  for (int i = 0; i < n; i++)
    local += w[i] * x[i] * x[i];
  double total;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return sqrt(total + 1.0);
}

// an array of partials, reduced in place, then used by every rank
#pragma adsoac grad
void sum_array(int n, const double *x, double *y, MPI_Comm comm) {
  double part[4] = {0.0, 0.0, 0.0, 0.0};
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 4; k++)
      part[k] += x[i] * (k + 1) + x[i] * x[i];
  MPI_Allreduce(MPI_IN_PLACE, part, 4, MPI_DOUBLE, MPI_SUM, comm);
#pragma adsoac map
  for (int k = 0; k < 4; k++)
    y[k] = y[k] * part[k];
}

// max and min over the ranks: the adjoint goes to the winning rank's element (y[0] is the
// same on every rank: a tie, won by the lowest rank)
#pragma adsoac grad
double extremes(const double *y, MPI_Comm world) {
  double hi[4], lo[4];
  MPI_Allreduce(y, hi, 4, MPI_DOUBLE, MPI_MAX, world);
  MPI_Allreduce(y, lo, 4, MPI_DOUBLE, MPI_MIN, world);
  double s = 0.0;
  for (int k = 0; k < 4; k++)
    s += hi[k] * (k + 1) - lo[k] * lo[k];
  return s;
}

// a product over the ranks, zeros included (v[0] is 0 on every rank, v[1] on rank 0 only)
#pragma adsoac grad
void product(double *v, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  v[0] = 0.0;
  if (rank == 0) v[1] = 0.0;
  MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE, MPI_PROD, comm);
}

// the communicator as MPI_COMM_WORLD, the rank and the number of ranks in the formula
#pragma adsoac grad
double mean_world(int n, const double *x) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * (rank + 1);
  double t = 0.0;
  int rc = MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // (MPI_SUCCESS)
  if (rc != MPI_SUCCESS) t = -1.0;
  return t / size;
}
