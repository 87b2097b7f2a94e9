void g(int n, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = 0;
}
#pragma adsoac grad
void f(int n, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[i] = 1;
}
