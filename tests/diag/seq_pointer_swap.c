// Ping-pong by swapping pointers in a time loop: refused, with the copy-back form as the hint.
#pragma adsoac grad
void heat(int n, int steps, double k, double *u, double *tmp) {
  double *a = u, *b = tmp;
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      b[i] = a[i] + k * (a[i - 1] - 2.0 * a[i] + a[i + 1]);
    double *s = a;
    a = b;
    b = s;
  }
}
