#include <mpi.h>
#pragma adsoac grad
void f(int n, double *x, MPI_Comm comm) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v = x[i], s;
    MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, comm);
    x[i] = s;
  }
}
