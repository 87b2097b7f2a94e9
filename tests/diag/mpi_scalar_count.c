#include <mpi.h>
#pragma adsoac grad
double f(int n, const double *x, MPI_Comm comm) {
  double s = x[0], t;
  MPI_Allreduce(&s, &t, n, MPI_DOUBLE, MPI_SUM, comm);
  return t;
}
