// Adjoints updated at indices nothing bounds before the loop but no array read decides: a
// counter through a packed triangle, as ADBench's GMM walks its factors (ad/rev_map.c's
// acc_window): every point's iteration updates the same elements, into its thread's window
// (rt_host.h), added to the array after the loop.  A counter counting up from 0 (packed), in
// float (packed_f), and down from an offset (packed_down: the window grows below its first
// element too).  Triangles of up to 36 elements: e2e.nofuse caps the windows at 48, so that
// they fill and the rest of the updates are atomic.
// e2e: sizes n=0,1,5,40,7 d=1,3,4,9,9
#include <math.h>
// e2e: func packed
// e2e: array L[d*d] range(-1,1)
// e2e: array x[n*d] range(-1,1)
// e2e: array y[n*d] range(-1,1)
// e2e: func packed_f
// e2e: array L[d*d] range(-1,1)
// e2e: array x[n*d] range(-1,1)
// e2e: array y[n*d] range(-1,1)
// e2e: func packed_down
// e2e: array L[d*d+1] range(-1,1)
// e2e: array x[n*d] range(-1,1)
// e2e: array y[n*d] range(-1,1)

#pragma adsoac grad
void packed(int n, int d, const double *L, const double *x, double *y) {
#pragma adsoac map
  for (int p = 0; p < n; p++) {
    int idx = 0;
    for (int i = 0; i < d; i++) {
      double s = x[p * d + i];
      for (int j = 0; j < i; j++) {
        s = s + L[idx] * x[p * d + j] * x[p * d + j];
        idx++;
      }
      y[p * d + i] = s;
    }
  }
}

#pragma adsoac grad
void packed_f(int n, int d, const float *L, const float *x, float *y) {
#pragma adsoac map
  for (int p = 0; p < n; p++) {
    int idx = 0;
    for (int i = 0; i < d; i++) {
      float s = x[p * d + i];
      for (int j = 0; j < i; j++) {
        s = s + L[idx] * sinf(x[p * d + j]);
        idx++;
      }
      y[p * d + i] = s;
    }
  }
}

#pragma adsoac grad
void packed_down(int n, int d, const double *L, const double *x, double *y) {
#pragma adsoac map
  for (int p = 0; p < n; p++) {
    int idx = d * d;
    for (int i = 0; i < d; i++) {
      double s = x[p * d + i] * L[idx];
      for (int j = 0; j < i; j++) {
        idx--;
        s = s + L[idx] * L[idx] * x[p * d + j];
      }
      y[p * d + i] = s;
    }
  }
}
