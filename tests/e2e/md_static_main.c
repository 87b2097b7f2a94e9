// A benchmark-style file (language.md 2, 6): sizes from a macro, a static kernel with a
// 2-D array parameter through the macro, and the file's own main that calls the kernel
// before its definition (a prototype) and after: the output keeps main, the generated
// f, f_vjp, f_jvp stay static, and their prototypes come before main.
// e2e: sizes n=1,4,8
// e2e: array A[64] range(-1,1)
// e2e: array x[8] range(-1,1)
// e2e: array y[8] range(-1,1)
#include <stdio.h>
#define N 8

static void matvec(int n, const double A[N][N], const double x[N], double y[N]);

static double scale = 1.0;

int main(void) {
  double A[N][N], x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.1 * i;
    for (int j = 0; j < N; j++) A[i][j] = 1.0 / (1 + i + j);
  }
  matvec(N, A, x, y);
  printf("%g\n", y[N - 1] * scale);
  return 0;
}

#pragma adsoac grad
static void matvec(int n, const double A[N][N], const double x[N], double y[N]) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += A[i][j] * x[j] * x[j];
    y[i] = s * y[i];
  }
}
