// Time loops that update arrays in place at any affine index (language.md §6, issue 18 item
// 7): a map writing y[2*i]; a state vector whose two halves (hidden, cell) are written through
// views at offsets that move with the step; one element per step (y[t]); a plain sequential
// loop scaling an array in place.
// e2e: sizes n=0,1,3,4 m=1,2,3,5
// e2e: array y[2*n+1] range(-1,1)
// e2e: array s[2*n*(m+1)+2] range(-1,1)
// e2e: array w[4*n+1] range(-0.5,0.5)
// e2e: array x[m+n+1] range(-1,1)
#include <math.h>

#pragma adsoac grad
void strided(int n, int m, double *y) {
  for (int t = 0; t < m; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) y[2 * i] = y[2 * i] * 0.5 + sin(y[2 * i + 1]);
  }
}

static void cell(int n, const double *w, const double *in, double *h, double *c) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double f = 1.0 / (1.0 + exp(-(w[i] * in[i] + w[n + i])));
    c[i] = c[i] * f + (1.0 - f) * tanh(w[2 * n + i] * h[i]);
    h[i] = tanh(c[i]) * w[3 * n + i];
  }
}

// the state of step t is s[2*n*t : 2*n*(t+1)] (h, then c); step t + 1 starts from a copy
#pragma adsoac grad
void layers(int n, int m, const double *w, double *s) {
  for (int t = 0; t < m; t++) {
    double *h = &s[2 * n * (t + 1)], *c = h + n;
#pragma adsoac map
    for (int i = 0; i < 2 * n; i++) s[2 * n * (t + 1) + i] = s[2 * n * t + i];
    cell(n, w, &s[2 * n * t], h, c);
  }
}

#pragma adsoac grad
void elements(int n, int m, double *x) {
  for (int t = 1; t < m + n; t++) x[t] = x[t] * x[t - 1] + 0.5;
  double k = 0.5;
  for (int t = 0; t < m; t++) k = k * 0.9 + x[t];
  for (int t = 0; t < m + n; t++) x[t] *= k;
}
