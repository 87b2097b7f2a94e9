#include <mpi.h>
#pragma adsoac grad
double f(double x, MPI_Comm comm) {
  double s = x * x, t;
  MPI_Scatter(&s, 1, MPI_DOUBLE, &t, 1, MPI_DOUBLE, 0, comm);
  return t;
}
