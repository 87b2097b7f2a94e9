#ifdef FOO
#pragma adsoac grad
void f(int n, double *y) {
}
