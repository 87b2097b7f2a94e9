#define SWAP(a, b) do { double t = a; a = b; b = t; } while (0)
#pragma adsoac grad
void f(int n, double *y) {
  double p = 1, q = 2;
  SWAP(p, q);
  y[0] = p;
}
