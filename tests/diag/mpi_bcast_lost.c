#include <mpi.h>
#pragma adsoac grad
double f(int T, const double *x, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double a;
  for (int t = 0; t < T; t++)
    if (rank == 0) a = x[0] * t;
  if (rank == 1) a = 2.0;
  MPI_Bcast(&a, 1, MPI_DOUBLE, 0, comm);
  return a * x[0];
}
