// a character outside ASCII where an operator belongs is quoted whole, not its first byte
#pragma adsoac grad
double f(int n, const double *x) {
  double s = 0;
#pragma adsoac reduce(π: s)
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
