// Structs of float fields with an int field: an array of structs and a struct by value, in
// single precision (the harness's double reference sees the same layout with double fields).
// e2e: sizes n=0,1,2,7,33 m=2,1,3,4,5
// e2e: array x[m] range(-1,1)
// e2e: struct pt[n] k=range(0,m) a=range(-1,1) b=range(0.5,1.5)
// e2e: struct cf s=range(0.5,1.5) n=range(1,5)
// e2e: array y[n] range(-1,1)
#include <math.h>

typedef struct {
  float a;
  short k;
  float b;
} PtF;

struct Coef {
  float s;
  int n;
};

#pragma adsoac grad
float structs_f(int n, int m, const PtF *pt, const float *x, struct Coef cf, float *y) {
  float acc = 0.0f;
#pragma adsoac reduce(+: acc)
  for (int i = 0; i < n; i++) {
    float v = pt[i].a * x[pt[i].k] + sqrtf(pt[i].b) * cf.s;
    y[i] = v * cf.n;
    acc += v * v;
  }
  return acc;
}
