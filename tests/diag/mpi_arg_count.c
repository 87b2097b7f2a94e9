#include <mpi.h>
#pragma adsoac grad
void f(const double *x, double *y, MPI_Comm comm) {
  MPI_Allreduce(x, y, 3, MPI_DOUBLE, MPI_SUM);
}
