// A sequential loop that reads an array, then a statement that overwrites elements of it:
// f_vjp's reverse of the loop runs its iterations again and must read the elements as they
// were before the overwrite (ad/rev_save.c plan_saves saves them, as for a parallel loop
// that reads them).  Found by tests/difftest/difftest.py (seed 6, program l6_4; was
// tests/difftest/found/time_loop_running_sum.c): in a time loop, hv += y[c] * x[c] in a
// sequential loop, then a map writing y[2*i] = hv; f_vjp read the new y[2*i] (x_bar, y_bar
// wrong, <jvp, w> != <u, vjp>), f and f_jvp were right.  Variants: the sum written other
// ways, the inner loop over another range, another array written, no time loop, the
// overwrite after the time loop, by one element, in an if, by a sequential loop (which
// restores what it overwrote itself), the reads nested two deep or in a while loop
// (e2e.stripmine2/3 run this file too: --stripmine=L strip-mined the while loop's counting
// run as well, whose upper bound LONG_MAX overflowed, and f_vjp ran none of its iterations).
// e2e: sizes n=0,1,2,5,2 s=2,3,1,4,0
// e2e: int steps = s
// e2e: array x[n] range(-1,1)
// e2e: array y[2*n] range(-1,1)
// e2e: func two_arrays
// e2e: array z[n] range(-1,1)
// e2e: func after_time
// e2e: array z[n] range(-1,1)
#include <math.h>

// the program the differential tester found (steps = 3 there)
#pragma adsoac grad
void time_loop_running_sum(int n, int steps, const double *x, double *y) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++) {
    for (int c = 0; c < n; c++) hv += y[c] * x[c];
#pragma adsoac map
    for (int i = 0; i < n; i++) y[2 * i] = hv;
  }
}

#pragma adsoac grad
void sum_assign(int n, int steps, const double *x, double *y) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++) {
    for (int c = 0; c < n; c++) hv = hv + y[c] * x[c];
#pragma adsoac map
    for (int i = 0; i < n; i++) y[2 * i] = hv;
  }
}

#pragma adsoac grad
void sum_times(int n, int steps, const double *x, double *y) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++) {
    for (int c = 0; c < n; c++) hv += y[c] * x[c] * hv;
#pragma adsoac map
    for (int i = 0; i < n; i++) y[2 * i] = 0.5 * hv;
  }
}

// the inner loop over more elements than the map writes, counting down
#pragma adsoac grad
void other_range(int n, int steps, const double *x, double *y) {
  double hv = 0.25;
  for (int t = 0; t < steps; t++) {
    for (int c = 2 * n - 1; c >= 1; c--) hv += y[c] * x[c / 2];
#pragma adsoac map
    for (int i = 0; i < n; i++) y[i] = hv * x[i];
  }
}

// no time loop: the reading loop and the overwriting map at the function's level
#pragma adsoac grad
void no_time_loop(int n, const double *x, double *y) {
  double hv = 0.5;
  for (int c = 0; c < n; c++) hv += y[c] * x[c];
#pragma adsoac map
  for (int i = 0; i < n; i++) y[2 * i] = hv;
}

// the map writes another array, which the inner loop reads next step
#pragma adsoac grad
void two_arrays(int n, int steps, const double *x, const double *y, double *z) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++) {
    for (int c = 0; c < n; c++) hv += z[c] * y[c] * x[c];
#pragma adsoac map
    for (int i = 0; i < n; i++) z[i] = hv * 0.5 + x[i];
  }
}

// the reads in a time loop, the overwrite after it
#pragma adsoac grad
void after_time(int n, int steps, const double *x, double *y, const double *z) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++)
    for (int c = 0; c < n; c++) hv += y[c] * x[c] * 0.5;
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = hv * z[i];
}

// one element written at the function's level (no loop) after the reading loop
#pragma adsoac grad
void one_element(int n, int steps, const double *x, double *y) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++) {
    for (int c = 0; c < n; c++) hv += y[c] * x[c];
    if (n > 0) y[n - 1] = hv * x[0];
  }
}

// the overwrite by a sequential loop, and by a map under an if
#pragma adsoac grad
void seq_overwrite(int n, int steps, const double *x, double *y) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++) {
    for (int c = 0; c < n; c++) hv += y[c] * x[c];
    for (int r = 0; r < 2; r++) {
#pragma adsoac map
      for (int i = 0; i < n; i++) y[i + 1] = y[i + 1] * 0.5 + hv * x[i];
    }
  }
}

#pragma adsoac grad
void if_overwrite(int n, int steps, const double *x, double *y) {
  double hv = 0.5;
  for (int c = 0; c < n; c++) hv += y[c] * x[c];
  if (hv > 0.0) {
#pragma adsoac map
    for (int i = 0; i < n; i++) y[i] = hv * x[i];
  } else {
    y[1] = hv;
  }
}

// the reading loop nested two deep
#pragma adsoac grad
void nested_reads(int n, int steps, const double *x, double *y) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++) {
    for (int a = 0; a < 2; a++)
      for (int c = 0; c < n; c++) hv += y[c + a] * x[c] * 0.5;
#pragma adsoac map
    for (int i = 0; i < n; i++) y[i + 1] = sin(hv) + x[i];
  }
}

// a loop that ends on a flag reads y
#pragma adsoac grad
void while_reads(int n, int steps, const double *x, double *y) {
  double hv = 0.5;
  for (int t = 0; t < steps; t++) {
    int c = 0;
    while (c < n && y[c] > -2.0) {
      hv += y[c] * x[c];
      c++;
    }
#pragma adsoac map
    for (int i = 0; i < n; i++) y[2 * i] = hv;
  }
}
