#pragma adsoac map
void f(int n, double *y) {
}
