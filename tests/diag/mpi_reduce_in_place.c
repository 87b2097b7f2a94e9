#include <mpi.h>
#pragma adsoac grad
void f(double *y, MPI_Comm comm) {
  MPI_Reduce(MPI_IN_PLACE, y, 3, MPI_DOUBLE, MPI_SUM, 0, comm);
}
