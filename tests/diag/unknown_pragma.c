#pragma adsoac gradient
void f(int n, double *y) {
}
