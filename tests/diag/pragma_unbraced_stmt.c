// A loop pragma as the unbraced body of an if, before a statement that is not a loop: the
// pragma (found where tree-sitter's grammar does not parse it) is refused at its line.
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  if (n > 0)
#pragma adsoac map
    y[0] = x[0] * x[0];
}
