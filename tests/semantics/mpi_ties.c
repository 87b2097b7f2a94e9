// tests/semantics/mpi_ties.c: language.md §10's rules across ranks (ties to the lowest rank,
// §7's zeros of a product), checked exactly by mpi_ties_main.c with 1, 2 and 3 ranks.
#include <mpi.h>

#pragma adsoac grad
void allmax(const double *x, double *y, MPI_Comm comm) {
  MPI_Allreduce(x, y, 3, MPI_DOUBLE, MPI_MAX, comm);
}

#pragma adsoac grad
void allmin(const double *x, double *y, MPI_Comm comm) {
  MPI_Allreduce(x, y, 3, MPI_DOUBLE, MPI_MIN, comm);
}

#pragma adsoac grad
void allprod(const double *x, double *y, MPI_Comm comm) {
  MPI_Allreduce(x, y, 3, MPI_DOUBLE, MPI_PROD, comm);
}
