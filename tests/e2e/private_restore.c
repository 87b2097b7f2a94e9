// The saves of a sequential loop in a parallel loop's body, over the iteration's own arrays:
// a loop that never reads an array it overwrites saves nothing of it unless something before
// it (in its block, or before the loops and ifs around it, up to an enclosing loop that reads
// the array) reads it; a loop that writes an array only at its own index saves that element
// per iteration, not the whole array (ad/rev_loop.c regions_of).  Each function below would
// get a wrong gradient if the reverse sweep saw the array in the wrong state: a read before
// the overwriting loop (A), an enclosing loop that restores for it (B), element saves with a
// carried read of the element before (C), a conditional write at the index (D), an if around
// the overwriting loop with a read before the if (E), malloc'd scratch as legacy code writes
// it (F).
// e2e: sizes n=1,2,5
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: array p[4] range(-1,1)
#include <stdlib.h>

#pragma adsoac grad
void read_before(int n, const double *x, const double *p, double *y) { // A
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4];
    for (int k = 0; k < 4; k++) w[k] = x[i] * p[k];
    double s = 0;
    for (int k = 0; k < 4; k++) s += w[k] * w[k];
    for (int k = 0; k < 4; k++) w[k] = p[k] - x[i]; // overwrites w, never reads it
    double t = 0;
    for (int k = 0; k < 4; k++) t += w[k] * x[i];
    y[i] = s * t;
  }
}

#pragma adsoac grad
void outer_restores(int n, const double *x, const double *p, double *y) { // B
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4], acc = 0;
    for (int k = 0; k < 4; k++) w[k] = 0.5;
    for (int r = 0; r < 3; r++) {
      double s = 0;
      for (int k = 0; k < 4; k++) s += w[k] * p[k]; // the enclosing loop reads w
      for (int k = 0; k < 4; k++) w[k] = x[i] * (r + 1) - p[k] * s;
      acc += w[r] * w[3 - r];
    }
    y[i] = acc;
  }
}

#pragma adsoac grad
void carried_element(int n, const double *x, const double *p, double *y) { // C
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4];
    w[0] = x[i];
    for (int k = 1; k < 4; k++) w[k] = w[k - 1] * p[k] + x[i]; // w[k] from w[k - 1]
    for (int k = 0; k < 4; k++) w[k] = w[k] * w[k] - p[k];      // reads, then writes w[k]
    y[i] = w[0] + w[1] * w[2] - w[3];
  }
}

#pragma adsoac grad
void guarded_element(int n, const double *x, const double *p, double *y) { // D
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4];
    for (int k = 0; k < 4; k++) w[k] = p[k] * x[i];
    for (int k = 0; k < 4; k++)
      if (w[k] > 0) w[k] = w[k] * x[i] + w[k];
    y[i] = w[0] * w[1] + w[2] * w[3];
  }
}

#pragma adsoac grad
void if_around(int n, const double *x, const double *p, double *y) { // E
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4];
    for (int k = 0; k < 4; k++) w[k] = p[k] + x[i];
    double s = 0;
    for (int k = 0; k < 4; k++) s += w[k] * p[k];
    if (x[i] > 0) {
      for (int k = 0; k < 4; k++) w[k] = x[i] * p[3 - k];
    }
    y[i] = s * (w[0] + w[3]);
  }
}

#pragma adsoac grad
void malloc_scratch(int n, const double *x, const double *p, double *y) { // F
  double *w = (double *)malloc(4 * sizeof(double));
  double *v = (double *)malloc(4 * sizeof(double));
  int i, k, r;
#pragma adsoac map
  for (i = 0; i < n; i++) {
    double acc = 0;
    for (r = 0; r < 2; r++) {
      for (k = 0; k < 4; k++) w[k] = x[i] - p[k] * r;
      for (k = 0; k < 4; k++) v[k] = w[k] * w[3 - k];
      for (k = 1; k < 4; k++) v[k] = v[k] + v[k - 1] * x[i];
      acc += v[3] * p[r];
    }
    y[i] = acc;
  }
  free(w);
  free(v);
}

// The loops below read an array they overwrite; ad/rev_loop.c adjoint_reads decides whether
// the reverse uses what it read (then the elements are saved per iteration) or only passes it
// through +, -, selects and carried values into elements nothing else reads (then nothing is
// saved, and the re-run computes garbage no rule reads).  G: the triangular update of
// ADBench's Qtimesx, a counter for the packed factor (no save); H: the linear update's
// result read by a product in the same loop through a carried value (saved); I: through a
// second array, then a product (saved); J: through a select's arm into a product (saved), and
// a select's condition only (saved: a comparison reads its operands); K: a linear update
// whose elements only a later loop reads, in a product (no save in the updating loop).
#pragma adsoac grad
void triangle(int n, const double *x, const double *p, double *y) { // G
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4], o[4];
    for (int k = 0; k < 4; k++) w[k] = x[i] - p[k];
    for (int k = 0; k < 4; k++) o[k] = p[k] * w[k];
    int at = 0;
    for (int a = 0; a < 4; a++)
      for (int b = a + 1; b < 4; b++) {
        o[b] = o[b] + p[at % 4] * w[a];
        at++;
      }
    double s = 0;
    for (int k = 0; k < 4; k++) s += o[k] * o[k];
    y[i] = s;
  }
}

#pragma adsoac grad
void linear_then_product(int n, const double *x, const double *p, double *y) { // H
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4], c = 1;
    for (int k = 0; k < 4; k++) w[k] = x[i] + p[k];
    for (int r = 0; r < 3; r++) {
      double t = w[r] + w[r + 1];
      w[r + 1] = t - p[r];
      c = c * t;
    }
    y[i] = c + w[3];
  }
}

#pragma adsoac grad
void through_array(int n, const double *x, const double *p, double *y) { // I
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4], v[4], acc = 0;
    for (int k = 0; k < 4; k++) w[k] = x[i] * p[k], v[k] = 0;
    for (int r = 0; r < 3; r++) {
      v[r] = w[r] + w[r + 1];
      w[r + 1] = w[r + 1] - p[r];
      acc += v[r] * v[r];
    }
    y[i] = acc;
  }
}

#pragma adsoac grad
void through_select(int n, const double *x, const double *p, double *y) { // J
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4], acc = 0;
    for (int k = 0; k < 4; k++) w[k] = x[i] * p[k];
    for (int r = 0; r < 3; r++) {
      double t = w[r] > p[r] ? w[r] : w[r + 1];
      w[r + 1] = w[r + 1] + t;
      acc += t * x[i];
    }
    y[i] = acc + w[3];
  }
}

#pragma adsoac grad
void read_later(int n, const double *x, const double *p, double *y) { // K
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double w[4];
    for (int k = 0; k < 4; k++) w[k] = x[i] * p[k];
    for (int r = 0; r < 4; r++)
      for (int k = 0; k < 4; k++) w[k] = w[k] + p[r] * x[i];
    double s = 1;
    for (int k = 0; k < 4; k++) s = s * w[k];
    y[i] = s;
  }
}

// L: each iteration of the r loop overwrites all of w (its 4 elements, from 0) before reading
// it: nothing saved (ad/rev_loop.c overwritten_whole).  M: it overwrites 3 of them, the 4th
// is carried from the iteration before: saved.
#pragma adsoac grad
void whole_overwrite(int n, const double *x, const double *p, double *y) { // L
  double *w = (double *)malloc(4 * sizeof(double));
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double acc = 0;
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 4; k++) w[k] = x[i] - p[k] * r;
      for (int k = 1; k < 4; k++) w[k] = w[k] * w[k - 1];
      acc += w[3] * p[r];
    }
    y[i] = acc;
  }
  free(w);
}

#pragma adsoac grad
void partial_overwrite(int n, const double *x, const double *p, double *y) { // M
  double *w = (double *)malloc(4 * sizeof(double));
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double acc = 0;
    for (int k = 0; k < 4; k++) w[k] = x[i] * p[k];
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 3; k++) w[k] = x[i] - p[k] * r;
      for (int k = 1; k < 4; k++) w[k] = w[k] * w[k - 1];
      acc += w[3] * p[r];
    }
    y[i] = acc;
  }
  free(w);
}
