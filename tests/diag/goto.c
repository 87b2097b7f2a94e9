#pragma adsoac grad
void f(int n, double *y) {
  goto end;
end:
  y[0] = 1.0;
}
