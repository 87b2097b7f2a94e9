/* e2e_mpi64.h: the double-precision reference of an MPI program (compiled with
 * -Dfloat=double) sends its float buffers, now double, as MPI_DOUBLE. */
#include <mpi.h>
#undef MPI_FLOAT
#define MPI_FLOAT MPI_DOUBLE
