// A helper declares rows of another extent than its argument's (C: incompatible pointer types)
#define N 8
static double corner(const double A[][4], int i) { return A[i][0]; }
#pragma adsoac grad
double f(int n, const double A[N][N]) {
  double t = 0.0;
#pragma adsoac reduce(+: t)
  for (int i = 0; i < n; i++) t += corner(A, i);
  return t;
}
