// Fixed-size and variable-length local arrays (language.md §6, issue 18 item 3): in a parallel
// loop's body each iteration has its own; sequential loops over them update them in place;
// helpers take them as pointers and write through them; 2-D arrays; initialisers; a local
// array at the function's level used in a time loop.
// e2e: sizes n=0,1,3,5 d=1,2,3,4
// e2e: array cams[9*n+9] range(-0.5,0.5)
// e2e: array X[3*n+3] range(-1,1)
// e2e: array err[2*n+2] range(-1,1)
// e2e: array x[n*d+1] range(-1,1)
// e2e: array L[d*d+1] range(-0.5,0.5)
// e2e: array y[n+1] range(-1,1)
#include <math.h>

static void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static void rotate(const double *rot, const double *pt, double *r) {
  double w[3], wx[3];
  for (int i = 0; i < 3; i++) w[i] = rot[i] * 0.5;
  cross(w, pt, wx);
  for (int i = 0; i < 3; i++) r[i] = pt[i] + wx[i] * cos(w[0]);
}

static void project(const double *cam, const double *X, double *proj) {
  double Xo[3], Xc[3];
  for (int k = 0; k < 3; k++) Xo[k] = X[k] - cam[3 + k];
  rotate(cam, Xo, Xc);
  proj[0] = Xc[0] / (2.0 + Xc[2]);
  proj[1] = Xc[1] / (2.0 + Xc[2]);
  double rsq = proj[0] * proj[0] + proj[1] * proj[1];
  proj[0] *= 1.0 + cam[6] * rsq;
  proj[1] *= 1.0 + cam[7] * rsq;
}

// bundle-adjustment style: camera blocks passed as &cams[9*i], a double proj[2] local, the
// two residuals of point i at err[2*i] and err[2*i + 1]
#pragma adsoac grad
void reproj(int n, const double *cams, const double *X, double *err) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double proj[2];
    project(&cams[9 * i], &X[3 * i], proj);
    err[2 * i] = proj[0] - cams[9 * i + 8];
    err[2 * i + 1] = proj[1] + cams[9 * i + 8];
  }
}

// a 2-D local array, a matrix product over it, an initialiser, in a reduction
#pragma adsoac grad
double mats(int n, const double *X) {
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double q[3][3] = {{1, 0, 0}, {0, 1, 0}, {X[3 * i], X[3 * i + 1], 1}};
    double p[3][3];
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) {
        p[a][b] = 0;
        for (int c = 0; c < 3; c++) p[a][b] += q[a][c] * q[c][b] * X[3 * i + 2];
      }
    double tr = 0;
    for (int a = 0; a < 3; a++) tr += p[a][a] * p[a][2 - a];
    s += tr;
  }
  return s;
}

// a lower-triangular product in place (GMM's Qtimesx) on a variable-length array of the
// iteration, then a squared norm of it
#pragma adsoac grad
void qtimes(int n, int d, const double *x, const double *L, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double out[d];
    for (int a = 0; a < d; a++) out[a] = exp(L[a * d + a]) * x[i * d + a];
    for (int a = 0; a < d; a++)
      for (int b = a + 1; b < d; b++) out[b] = out[b] + L[b * d + a] * x[i * d + a];
    for (int a = 0; a < d; a++) out[a] = out[a] * out[a] + 0.5 * out[a];
    double s = 0;
    for (int a = 0; a < d; a++) s += out[a] * out[a];
    y[i] = s;
  }
}

// a local array at the function's level, updated in place in a time loop
#pragma adsoac grad
void history(int n, int d, double *y) {
  double h[4] = {0.5, 0.25, 0.125, 0.0625};
  for (int t = 0; t < d; t++) {
    for (int k = 3; k > 0; k--) h[k] = h[k - 1] * 0.9;
    h[0] = 0;
    for (int i = 0; i < n; i++) h[0] += y[i] * y[i] * 0.1;
#pragma adsoac map
    for (int i = 0; i < n; i++) y[i] = y[i] * (1.0 - h[0]) + h[3];
  }
}
