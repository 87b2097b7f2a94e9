#pragma adsoac grad
void f(int n, double *y) {
#pragma adsoac map
  for (int i = 0; n > i; i++)
    y[i] = 1.0;
}
