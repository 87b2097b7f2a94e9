#include <mpi.h>
#pragma adsoac grad
double f(double x, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double s = x * x;
  MPI_Gather(rank == 0 ? MPI_IN_PLACE : &s, 1, MPI_DOUBLE, &s, 1, MPI_DOUBLE, 0, comm);
  return s;
}
