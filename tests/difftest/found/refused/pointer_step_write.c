// REFUSED (adsoac exits 1), found by tests/difftest/difftest.py (legacy space), reduced by hand:
// a counted for loop whose increment also steps a pointer (c += 1, q++) and writes through it
// (*q = ...): it is read as a loop that ends on a condition; pointers.c's walk does the same
// with reads only.
// With q++ in the body instead (*q = *q * 0.5 + a; s += *q; q++;) it is refused too: "the
// elements this sequential loop overwrites change from iteration to iteration: checkpointing
// them is not supported", where y[c] = y[c] * 0.5 + a translates (time_inplace.c's elements).
// adsoac says:
//   error: reverse mode of a loop that ends on a condition (while, do, break) and reads
//   an array it writes is not supported
//   = hint: compute the values in the loop and write the arrays after it, or make it a counted
//   loop (for (i = lo; i < hi; i++)) without break
// e2e: sizes n=0,1,5
// e2e: scalar a range(-1,1)
// e2e: array y[n] range(-1,1)
#pragma adsoac grad
double pointer_step_write(int n, double a, double *y) {
  double s = 0.0;
  double *q = y;
  for (int c = 0; c < n; c += 1, q++) {
    *q = *q * 0.5 + a;
    s += *q;
  }
  return s;
}
