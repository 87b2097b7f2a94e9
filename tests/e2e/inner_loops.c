// Sequential loops inside parallel loop bodies (one thread's loop, language.md §3 Nesting):
// running sums (no state), a recurrence whose values the reverse recomputes, a CSR row
// (bounds read from an array), and a time loop around a map whose body has its own loop.
// e2e: sizes n=0,1,3,6 d=0,1,2,5
// e2e: func rows
// e2e: array A[n*d] range(-1,1)
// e2e: array x[d] range(-1,1)
// e2e: array y[n] range(-1,1)
// e2e: func recur
// e2e: array a[n*d] range(-0.9,0.9)
// e2e: array b[n*d] range(-1,1)
// e2e: array h[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
void rows(int n, int d, const double *A, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0, q = 1.0;
    for (int j = 0; j < d; j++) {
      s += A[i * d + j] * x[j];
      q = q * cos(x[j]) + A[i * d + j] * q;
    }
    y[i] = s * q + y[i];
  }
}

// h[i] <- the state of the recurrence z = tanh(a z + b) started from h[i]
#pragma adsoac grad
void recur(int n, int d, const double *a, const double *b, double *h) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double z = h[i];
    for (int j = 0; j < d; j++) z = tanh(a[i * d + j] * z + b[i * d + j]);
    h[i] = z;
  }
}

// A scalar recurrence at the function's level inside an if (reversed by recomputation) and
// one at the function's level (checkpointed), both reading an array.
// e2e: func scalar_loops
// e2e: array w[d] range(-1,1)
// e2e: scalar x0 range(-1,1)
#pragma adsoac grad
double scalar_loops(int n, int d, double x0, const double *w) {
  double s = x0, p = 1.0;
  if (n > 1) {
    for (int t = 0; t < d; t++)
      s = sin(s) * w[t] + p * 0.5;
  }
  for (int t = 0; t < n * d; t++) {
    p = p * 0.9 + s * w[t % d];
    s = cos(p) + s * 0.5;
  }
  return s * p;
}

// Rows of a matrix written by a sequential loop in a map (A[i*d + j], j over [0, d)): each
// iteration owns row i, also for the adjoint updates of the row reads of B.
// e2e: func outer
// e2e: array u[n] range(-1,1)
// e2e: array v[d] range(-1,1)
// e2e: array B[n*d] range(-1,1)
// e2e: array O[n*d] range(-1,1)
// e2e: written O
#pragma adsoac grad
void outer(int n, int d, const double *u, const double *v, const double *B, double *O) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    for (int j = 0; j < d; j++)
      O[i * d + j] = u[i] * sin(v[j]) + B[i * d + j] * B[i * d + j];
}

// A running maximum and a counter through a packed triangle in a map's body: carried values
// that are not running sums, kept on a tape per iteration of the C target's reverse (ad/
// rev_loop.c carries_state; the CUDA target recomputes them from the loop's start); and a
// local that a loop only steps by a constant and nothing reads after it (its tangent handed
// on unchanged: transform/simplify.c prune_carried drops it; it was left declared and unused,
// failing -Wall -Werror).
// e2e: func carried_state
// e2e: array c[n*d] range(-1,1)
// e2e: array g[n] range(-1,1)
#pragma adsoac grad
void carried_state(int n, int d, const double *c, double *g) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double m = -1e30, s = 0.0, r = g[i], unused = g[i];
    int at = 0;
    for (int j = 0; j < d; j++) {
      if (c[i * d + j] * r > m) m = c[i * d + j] * r;
      for (int k = j + 1; k < d; k++) {
        s += c[i * d + k] * c[i * d + at % d];
        at++;
      }
      r += 0.25;
    }
    for (int t = 0; t != 3; t += 1) unused += -1.0;
    g[i] = (d > 0 ? m : 0.0) + s;
  }
}

// Elements read in every iteration of a sequential loop (x[0], x[1]: their adjoints summed in
// a register across the reverse loop and added once after it, where it ran: d = 0 runs none
// and x has no element; transform/promote.c), an in-place update w[j] = w[j] + e (the
// adjoint of w[j] taken and given back: left alone), and an element both read and written in
// every iteration (w[1]: not summed in a register).
// e2e: func elem_sums
// e2e: array A[n*d] range(-1,1)
// e2e: array x[d] range(-1,1)
// e2e: array y[n] range(-1,1)
#pragma adsoac grad
void elem_sums(int n, int d, const double *A, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0, w[3] = {0.0, 0.0, 0.0};
    int last = d > 1 ? 1 : 0;
    for (int j = 0; j < d; j++) s += A[i * d + j] * x[0] * x[last];
    for (int j = 0; j < 3; j++) w[j] = w[j] + s * (j + 1);
    for (int j = 0; j < d; j++) w[1] = w[1] * 0.5 + x[j] * A[i * d + j];
    y[i] = w[0] * w[1] + w[2] * s + y[i];
  }
}

// The same at the function's level: a time loop whose steps read p[0] (its adjoint summed
// in a register across the reverse time loop).
// e2e: func step_sums
// e2e: array p[2] range(0.5,1)
// e2e: array y[n] range(-1,1)
#pragma adsoac grad
void step_sums(int n, int d, const double *p, double *y) {
  for (int t = 0; t < d; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) y[i] = y[i] * p[0] + sin(y[i]) * p[1];
  }
}

// Integer inductions carried by sequential loops (one stepped by a variable, one counting
// down, one at the function's level indexing the parameters of each step): their values in
// the reverse computed from the loop's start (ad/rev_loop.c induction_at), neither taped nor
// recomputed by running the loop again.
// e2e: func inductions
// e2e: array c[n*d] range(-1,1)
// e2e: array g[n] range(-1,1)
#pragma adsoac grad
void inductions(int n, int d, const double *c, double *g) {
  int stride = d > 2 ? 2 : 1;
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = g[i];
    int up = 0, down = d - 1;
    for (int j = 0; j < d; j++) {
      s = s * 0.5 + c[i * d + up % d] * c[i * d + down] * s;
      up += stride;
      down -= 1;
    }
    g[i] = s;
  }
}

// e2e: func step_offsets
// e2e: array p[2*d+2] range(0.5,1)
// e2e: array y[n] range(-1,1)
#pragma adsoac grad
void step_offsets(int n, int d, const double *p, double *y) {
  int off = 0;
  for (int t = 0; t < d; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++) y[i] = y[i] * p[off] + cos(y[i]) * p[off + 1];
    off += 2;
  }
}
