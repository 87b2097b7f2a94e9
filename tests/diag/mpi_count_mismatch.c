#include <mpi.h>
#pragma adsoac grad
void f(const double *x, double *y, MPI_Comm comm) {
  MPI_Allgather(x, 2, MPI_DOUBLE, y, 3, MPI_DOUBLE, comm);
}
