typedef struct { double a, b; } In;
typedef struct { In in; int k; } Out;
#pragma adsoac grad
double f(int n, const Out *o) {
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += o[i].in.a;
  return s;
}
