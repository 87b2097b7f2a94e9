#include <mpi.h>
#pragma adsoac grad
void f(int n, const double *x, double *y, MPI_Comm comm) {
  MPI_Scatter(x, n, MPI_DOUBLE, MPI_IN_PLACE, n, MPI_DOUBLE, 0, comm);
  y[0] = x[0];
}
