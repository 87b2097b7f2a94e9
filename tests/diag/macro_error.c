#define MODE 3
#if MODE > 2
#error "MODE must be 1 or 2"
#endif
#pragma adsoac grad
void f(int n, double *y) {
}
