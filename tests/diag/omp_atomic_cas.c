// language.md 11: '#pragma omp atomic compare' on a compare-and-swap (x = x == e ? d : x) has
// no reading as a reduction: refused, with the min/max forms it reads as the hint
#pragma adsoac grad
void f(int n, const double *x, double *out) {
  double first = -1.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic compare
    if (first == -1.0) { first = x[i]; }
  }
  out[0] = first;
}
