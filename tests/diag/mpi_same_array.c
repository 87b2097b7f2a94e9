#include <mpi.h>
#pragma adsoac grad
void f(double *x, MPI_Comm comm) {
  MPI_Allreduce(x, x + 3, 3, MPI_DOUBLE, MPI_SUM, comm);
}
