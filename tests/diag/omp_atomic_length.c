// language.md 11: an '#pragma omp atomic' update of an array whose length adsoac cannot see
// (a plain pointer parameter) is refused, with the two ways to say it
#pragma adsoac grad
void f(int n, const int *bin, const double *w, double *h) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    h[bin[i]] += w[i];
  }
}
