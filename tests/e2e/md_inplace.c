// In-place updates in nested parallel loops (language.md 6, PolyBench's forms): an element
// read and written by its own iteration of a map over i and a map over j, whose reverse needs
// the old value (saved per iteration of the nest, before it is overwritten): gemm's
// C[i][j] = beta * C[i][j] + acc, jacobi-2d's write back A from B after B from A, both in a
// time loop, PolyBench's heat-3d (three nested maps, two sweeps per step, in a time loop), a
// flat A[i*m + j] = f(A[i*m + j]) with the inner loop from 1, an update under an if, and three
// nested maps over an array of arrays of arrays updated in place.
// e2e: func gemm
// e2e: sizes n=0,1,2,5 m=1,1,3,4 k=1,2,1,3
// e2e: scalar alpha range(-2,2)
// e2e: scalar beta range(-2,2)
// e2e: array C[n*m] range(-1,1)
// e2e: array A[n*k] range(-1,1)
// e2e: array B[m*k] range(-1,1)
// e2e: func jacobi_writeback
// e2e: sizes n=0,1,3,6
// e2e: array A[n*n] range(-1,1)
// e2e: array B[n*n] range(-1,1)
// e2e: func jacobi_time
// e2e: sizes n=0,1,3,5 tsteps=0,1,2,3
// e2e: array A[n*n] range(-1,1)
// e2e: array B[n*n] range(-1,1)
// e2e: func flat_sin
// e2e: sizes n=0,1,2,4 m=1,1,3,5
// e2e: array x[n] range(-1,1)
// e2e: array y[m] range(-1,1)
// e2e: array A[n*m] range(-1,1)
// e2e: func guarded
// e2e: sizes n=0,1,3,4 m=1,2,3,4
// e2e: array A[n*m] range(-1,1)
// e2e: array w[m] range(-1,1)
// e2e: func heat_3d_time
// e2e: sizes n=0,1,3,4 tsteps=0,1,2,2
// e2e: array A[n*n*n] range(-1,1)
// e2e: array B[n*n*n] range(-1,1)
// e2e: func cube
// e2e: sizes n=0,1,2,3
// e2e: array A[n*n*n] range(-1,1)
// e2e: array c[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
void gemm(int n, int m, int k, double alpha, double beta, double C[n][m],
          const double A[n][k], const double B[m][k]) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 0; j < m; j++) {
      double acc = 0.0;
      for (int l = 0; l < k; l++) acc += alpha * A[i][l] * B[j][l];
      C[i][j] = beta * C[i][j] * C[i][j] + acc;
    }
  }
}

#pragma adsoac grad
void jacobi_writeback(int n, double A[n][n], double B[n][n]) {
#pragma adsoac map
  for (int i = 1; i < n - 1; i++) {
#pragma adsoac map
    for (int j = 1; j < n - 1; j++)
      B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i - 1][j] + A[i + 1][j]);
  }
#pragma adsoac map
  for (int i = 1; i < n - 1; i++) {
#pragma adsoac map
    for (int j = 1; j < n - 1; j++)
      A[i][j] = B[i][j] * B[i][j];
  }
}

#pragma adsoac grad
void jacobi_time(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
#pragma adsoac map
    for (i = 1; i < n - 1; i++) {
#pragma adsoac map
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    }
#pragma adsoac map
    for (i = 1; i < n - 1; i++) {
#pragma adsoac map
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]) * A[i][j];
    }
  }
}

#pragma adsoac grad
void flat_sin(int n, int m, const double *x, const double *y, double *A) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 1; j < m; j++)
      A[i * m + j] = x[i] * y[j] + sin(A[i * m + j]);
  }
}

#pragma adsoac grad
void guarded(int n, int m, double *A, const double *w) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 0; j < m; j++) {
      double a = A[i * m + j];
      if (a > w[j]) A[i * m + j] = a * a - w[j];
      else if (a < -0.5) A[i * m + j] = exp(a);
    }
  }
}

#pragma adsoac grad
void cube(int n, double A[n][n][n], const double *c) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
  {
#pragma adsoac map
    for (int j = 0; j < n; j++)
    {
#pragma adsoac map
      for (int k = 0; k < n; k++)
        A[i][j][k] = A[i][j][k] * A[i][j][k] * c[k] + c[i] * A[i][j][k];
    }
  }
}

#pragma adsoac grad
void heat_3d_time(int tsteps, int n, double A[n][n][n], double B[n][n][n]) {
  int t, i, j, k;
  for (t = 1; t <= tsteps; t++) {
#pragma adsoac map
    for (i = 1; i < n - 1; i++)
#pragma adsoac map
      for (j = 1; j < n - 1; j++)
#pragma adsoac map
        for (k = 1; k < n - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                     + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                     + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                     + A[i][j][k] * A[i][j][k];
#pragma adsoac map
    for (i = 1; i < n - 1; i++)
#pragma adsoac map
      for (j = 1; j < n - 1; j++)
#pragma adsoac map
        for (k = 1; k < n - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                     + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                     + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1])
                     + B[i][j][k];
  }
}
