#pragma adsoac grad
void f(int n, long double *y) {
}
