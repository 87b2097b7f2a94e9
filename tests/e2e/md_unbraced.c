// Marked loops as the unbraced bodies of other statements (valid C: a directive on its own
// line where the statement goes), as PolyBench writes its nests: jacobi-2d exactly as the
// suite has it (static, indices declared at the top, a time loop, maps over i whose bodies are
// maps over j, no braces), a marked loop under an if and an else, another tool's pragma and a
// #define between the header and the loop (a reduce as a do's body: do_cond_effects.c).
// e2e: func kernel_jacobi_2d
// e2e: sizes n=0,1,3,5 tsteps=0,1,2,2
// e2e: array A[n*n] range(-1,1)
// e2e: array B[n*n] range(-1,1)
// e2e: func branches
// e2e: sizes n=0,1,4,7
// e2e: scalar c range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func mixed_nests
// e2e: sizes n=0,1,3,5 tsteps=0,1,2,3
// e2e: array A[n*n] range(-1,1)
// e2e: array B[n*n] range(-1,1)
// e2e: array out[1] range(-1,1)
#include <math.h>

#pragma adsoac grad
static void kernel_jacobi_2d(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;

  for (t = 0; t < tsteps; t++)
    {
#pragma adsoac map
      for (i = 1; i < n - 1; i++)
#pragma adsoac map
	for (j = 1; j < n - 1; j++)
	  B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
#pragma adsoac map
      for (i = 1; i < n - 1; i++)
#pragma adsoac map
	for (j = 1; j < n - 1; j++)
	  A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
    }
}

#pragma adsoac grad
void branches(int n, double c, const double *x, double *y) {
  if (c > 0)
#pragma adsoac map
    for (int i = 0; i < n; i++)
      y[i] = c * x[i] * x[i];
  else
#define SHIFT(v) ((v) - 0.5)
#pragma GCC ivdep
#pragma adsoac map
    for (int i = 0; i < n; i++)
      y[i] = SHIFT(sin(x[i])) * y[i];
}

// (a fuzzer find) indices declared at the top: a map over i whose body is a map over j, then a
// sequential loop over i around a map over j, in a time loop; j's final value in the first
// nest is each iteration's own, and the second loop starts it afresh
#pragma adsoac grad
void mixed_nests(int tsteps, int n, double *A, double *B, double *out) {
  int t, i, j;
  for (t = 1; t < tsteps; t++) {
#pragma adsoac map
    for (i = 1; i < n - 1; i++)
#pragma adsoac map
      for (j = 1; j < n - 1; j++)
        B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1]) + sin(A[i * n + j + 1]);
    for (i = 1; i < n - 1; i++)
#pragma adsoac map
      for (j = 1; j < n - 1; j++)
        A[i * n + j] = 0.5 * B[i * n + j] * B[(i - 1) * n + j];
  }
  out[0] = t;
}
