// REFUSED (adsoac exits 1), found by tests/difftest/difftest.py (legacy space), reduced by hand:
// a while (or do, or a for with break) loop in a parallel loop's body that updates a local
// array in place; language.md §6 lists while, do, break and continue among the sequential
// inner loops of a body, without this restriction (README does not mention it).
// adsoac says:
//   error: reverse mode of a loop that ends on a condition (while, do, break) and
//   reads an array it writes is not supported
//   = hint: compute the values in the loop and write the arrays after it, or make it a counted
//   loop (for (i = lo; i < hi; i++)) without break
// e2e: sizes n=0,1,5
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#pragma adsoac grad
void exit_loop_inplace(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[3] = {x[i], 1.0, 2.0};
    int c = 0;
    while (c < 3) {
      v[c] = v[c] * x[i] + 0.5;
      c++;
    }
    y[i] = v[0] * v[2];
  }
}
