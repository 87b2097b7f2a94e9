#include <mpi.h>
#pragma adsoac grad
double f(int n, double *x, MPI_Comm comm) {
  MPI_Send(x, n, MPI_DOUBLE, 1, 0, comm);
  return x[0];
}
