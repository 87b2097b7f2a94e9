// language.md 11: an '#pragma omp atomic' update of an array whose length adsoac cannot see
// (a plain pointer parameter), under a condition (the indices it updates cannot be found by a
// loop before this one), is refused, with the two ways to say the section
#pragma adsoac grad
void f(int n, const int *bin, const double *w, double *h) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (w[i] > 0.0) {
#pragma omp atomic
      h[bin[i]] += w[i];
    }
  }
}
