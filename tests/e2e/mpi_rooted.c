// MPI_Reduce, MPI_Gather and MPI_Scatter (language.md §10): results on the root only (the
// other ranks' receive buffers keep their contents and their seeds), data sent from the root
// only (the other ranks' send buffers are not read).
// e2e: mpi 1,2,3
// e2e: sizes n=1,3
// e2e: array x[n] range(-1,1)
// e2e: array y[3] range(-1,1)
// e2e: array src[9] range(-1,1)
// e2e: array out[n] range(-1,1)
// e2e: func gather_root
// e2e: sizes n=0,1,3
// e2e: func scatter_root
// e2e: sizes n=0,1,3
// e2e: func scatter_in_place
// e2e: sizes n=0,1,3
// e2e: func scatter_in_place_scalar
// e2e: sizes n=1
#include <math.h>
#include <mpi.h>

// sums and maxima reduced to the root, into an array and a scalar that keeps its value
// elsewhere
#pragma adsoac grad
double reduce_root(int n, const double *x, double *y, MPI_Comm comm) {
  double part[3] = {0.0, 0.0, 0.0};
  for (int i = 0; i < n; i++) {
    part[0] += x[i];
    part[1] += x[i] * x[i];
    part[2] += sin(x[i]);
  }
  MPI_Reduce(part, y, 3, MPI_DOUBLE, MPI_SUM, 0, comm);
  double m = x[0], best = -1.0;
  MPI_Reduce(&m, &best, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  return best * best + y[1];
}

// a product to the last rank, with zeros: element 0 on rank 0 only, element 2 on every rank
#pragma adsoac grad
void reduce_prod(int n, const double *x, double *y, MPI_Comm comm) {
  int size, rank;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  double p[3] = {rank == 0 ? 0.0 : x[0], x[n - 1] * 2.0, 0.0 * x[0]};
  MPI_Reduce(p, y, 3, MPI_DOUBLE, MPI_PROD, size - 1, comm);
}

// every rank's shard gathered on rank 0, which weighs them; the others return 0
#pragma adsoac grad
double gather_root(int n, const double *x, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double all[64];
  MPI_Gather(x, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, comm);
  double s = 0.0;
  if (rank == 0)
    for (int k = 0; k < n * size; k++) s += (k + 1) * all[k] * all[k];
  return s;
}

// the root's src[0 : n*size] dealt out, n elements to each rank (src is read on the root only)
#pragma adsoac grad
void scatter_root(int n, const double *src, double *out, MPI_Comm comm) {
  double mine[8];
  MPI_Scatter(src, n, MPI_DOUBLE, mine, n, MPI_DOUBLE, 0, comm);
#pragma adsoac map
  for (int i = 0; i < n; i++)
    out[i] = out[i] * exp(mine[i]);
}

// the root reduces in place (MPI_IN_PLACE on the root, its own buffer elsewhere); the root's
// y enters the sum, the others' y stay as they were
#pragma adsoac grad
void reduce_in_place(int n, const double *x, double *y, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double buf[3] = {x[0] * x[0], x[n - 1] + 1.0, y[2] * x[0]};
  MPI_Reduce((rank == 0) ? MPI_IN_PLACE : buf, y, 3, MPI_DOUBLE, MPI_SUM, 0, comm);
}

// in place: the root's block already in the gather's result, every rank's in the allgather's
#pragma adsoac grad
double gather_in_place(int n, const double *x, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double all[64], every[64];
  for (int i = 0; i < n; i++) {
    all[rank * n + i] = x[i] * x[i];
    every[rank * n + i] = sin(x[i]);
  }
  MPI_Gather(rank == 0 ? MPI_IN_PLACE : all + rank * n, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, comm);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, every, n, MPI_DOUBLE, comm);
  double s = 0.0;
  for (int k = 0; k < n * size; k++) s += (k + 1) * every[k];
  if (rank == 0)
    for (int k = 0; k < n * size; k++) s += all[k] * (k % 3);
  return s;
}

// an in-place scatter from the last rank: its own block stays in src (MPI_IN_PLACE on the
// root), the others receive theirs into mine
#pragma adsoac grad
double scatter_in_place(int n, const double *src, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int root = size - 1;
  double mine[8];
  MPI_Scatter(src, n, MPI_DOUBLE, rank == root ? MPI_IN_PLACE : mine, n, MPI_DOUBLE, root, comm);
  double s = 0.0;
  if (rank == root)
    for (int i = 0; i < n; i++) s += (i + 1) * sin(src[root * n + i]);
  else
    for (int i = 0; i < n; i++) s += (i + 1) * sin(mine[i]) + rank;
  return s;
}

// the same into a scalar: the root's stays as it was (2), the others receive theirs
#pragma adsoac grad
double scatter_in_place_scalar(int n, const double *src, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double mine = 2.0;
  MPI_Scatter(src, 1, MPI_DOUBLE, rank == 0 ? MPI_IN_PLACE : &mine, 1, MPI_DOUBLE, 0, comm);
  return sin(mine) * n + (rank == 0 ? src[0] * src[0] : 0.0);
}
