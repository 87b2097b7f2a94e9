// Dense linear algebra over arrays of arrays, as PolyBench writes it (language.md 2): a
// matrix product with transposed reads (C[i][j] += alpha * A[i][k] * B[j][k], maps over i and
// j, the k loop inside accumulating in a local scalar), a forward substitution with a
// reduce(+: s) over j < i (L's diagonal kept away from zero by fill), matrix-vector products
// with `double (*A)[M]` and `const double A[][M]` parameters, and a row A[i] passed to a
// helper `dot(m, A[i], x)`. gemm_t writes its result to another array than C0 (the in-place
// C[i][j] = beta * C[i][j] + acc: md_inplace.c).
// e2e: sizes n=0,1,2,5 m=1,1,3,4 k=1,2,1,3
// e2e: func gemm_t
// e2e: scalar alpha range(-2,2)
// e2e: scalar beta range(-2,2)
// e2e: array C0[n*m] range(-1,1)
// e2e: array C[n*m] range(-1,1)
// e2e: array A[n*k] range(-1,1)
// e2e: array B[m*k] range(-1,1)
// e2e: func trisolv
// e2e: sizes n=0,1,2,5,8
// e2e: array L[n*n] range(-1,1) fill(i % (n + 1) == 0 ? 2.0 + r : 0.4 * r)
// e2e: array b[n] range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: func matvec_ptr
// e2e: readonly A
// e2e: sizes n=0,1,3,5 m=1,1,4,6
// e2e: array A[n*6] range(-1,1)
// e2e: array x[6] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func matvec_const
// e2e: sizes n=0,1,3,5 m=1,1,4,6
// e2e: array A[n*6] range(-1,1)
// e2e: array x[6] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func rows_dot
// e2e: sizes n=0,1,3,5 m=1,2,1,7
// e2e: array A[n*m] range(-1,1)
// e2e: array x[m] range(-1,1)
// e2e: array y[n] range(-1,1)
#define M 6

#pragma adsoac grad
void gemm_t(int n, int m, int k, double alpha, double beta, const double C0[n][m], double C[n][m],
            const double A[n][k], const double B[m][k]) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 0; j < m; j++) {
      double acc = 0.0;
      for (int l = 0; l < k; l++) acc += alpha * A[i][l] * B[j][l];
      C[i][j] = beta * C0[i][j] * C0[i][j] + acc;
    }
  }
}

#pragma adsoac grad
void trisolv(int n, const double L[n][n], const double b[n], double x[n]) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = 0; j < i; j++) s += L[i][j] * x[j];
    x[i] = (b[i] - s) / L[i][i];
  }
}

#pragma adsoac grad
void matvec_ptr(int n, int m, double (*A)[M], const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < m; j++) s += A[i][j] * x[j];
    y[i] = s * s;
  }
}

#pragma adsoac grad
void matvec_const(int n, int m, const double A[][M], const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int j = 0; j < m; j++) s += A[i][j] * x[j] * x[j];
    y[i] = y[i] * s;
  }
}

static double dot(int n, const double *r, const double *x) {
  double s = 0.0;
  for (int j = 0; j < n; j++) s += r[j] * x[j];
  return s;
}

#pragma adsoac grad
void rows_dot(int n, int m, const double A[n][m], const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = y[i] + dot(m, A[i], x) * dot(m, A[i], A[i]);
}
