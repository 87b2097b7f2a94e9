/* jacobi2d.c: the 2-D Jacobi stencil as PolyBench/C writes its kernels (sizes from macros,
 * DATA_TYPE and SCALAR_VAL, arrays of arrays A[N][N] as parameters, a static kernel between
 * #pragma scop and #pragma endscop, the program's own main that initializes, runs and
 * prints), with #pragma adsoac lines added and nothing else changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#ifndef N
# define N 90
#endif
#ifndef TSTEPS
# define TSTEPS 20
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "
#define SCALAR_VAL(x) x

/* Array initialization. */
static
void init_array (int n,
		 DATA_TYPE A[N][N],
		 DATA_TYPE B[N][N])
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
	A[i][j] = ((DATA_TYPE) i*(j+2) + 2) / n;
	B[i][j] = ((DATA_TYPE) i*(j+3) + 3) / n;
      }
}

/* DCE code. Must scan the entire live-out data. */
static
void print_array(int n,
		 DATA_TYPE A[N][N])
{
  int i, j;

  fprintf(stderr, "begin dump: %s", "A");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0) fprintf(stderr, "\n");
      fprintf(stderr, DATA_PRINTF_MODIFIER, A[i][j]);
    }
  fprintf(stderr, "\nend   dump: %s\n", "A");
}

/* Main computational kernel. The whole function will be timed,
   including the call and return. */
#pragma adsoac grad
static
void kernel_jacobi_2d(int tsteps,
			    int n,
			    DATA_TYPE A[N][N],
			    DATA_TYPE B[N][N])
{
  int t, i, j;

#pragma scop
  for (t = 0; t < tsteps; t++)
    {
#pragma adsoac map
      for (i = 1; i < n - 1; i++)
#pragma adsoac map
	for (j = 1; j < n - 1; j++)
	  B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
#pragma adsoac map
      for (i = 1; i < n - 1; i++)
#pragma adsoac map
	for (j = 1; j < n - 1; j++)
	  A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
    }
#pragma endscop

}

int main(int argc, char** argv)
{
  /* Retrieve problem size. */
  int n = N;
  int tsteps = TSTEPS;

  /* Variable declaration/allocation. */
  DATA_TYPE (*A)[N] = (DATA_TYPE (*)[N]) malloc(sizeof(DATA_TYPE[N][N]));
  DATA_TYPE (*B)[N] = (DATA_TYPE (*)[N]) malloc(sizeof(DATA_TYPE[N][N]));

  /* Initialize array(s). */
  init_array (n, A, B);

  /* Run kernel. */
  kernel_jacobi_2d(tsteps, n, A, B);

  /* Prevent dead-code elimination. All live-out data must be printed
     by the function call in argument. */
  if (argc > 42 && ! strcmp(argv[0], "")) print_array(n, A);

  /* Be clean. */
  free(A);
  free(B);

  return 0;
}
