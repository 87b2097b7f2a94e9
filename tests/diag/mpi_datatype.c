#include <mpi.h>
#pragma adsoac grad
double f(const double *x, MPI_Comm comm) {
  double s = x[0], t;
  MPI_Allreduce(&s, &t, 1, MPI_LONG_DOUBLE, MPI_SUM, comm);
  return t;
}
