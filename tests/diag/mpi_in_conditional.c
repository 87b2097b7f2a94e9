#include <mpi.h>
#pragma adsoac grad
double f(double x, MPI_Comm comm) {
  double s = x * x, t = 0.0;
  int rc = x > 0 ? MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, comm) : 0;
  return t + rc;
}
