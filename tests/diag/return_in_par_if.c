// a return under an if in a parallel loop: the error points at the return, not at the if
#pragma adsoac grad
void f(int n, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = 1.0;
    if (i > 2)
      y[i] = 2.0;
    else
      return;
  }
}
