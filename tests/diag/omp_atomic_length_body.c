// language.md 11: an '#pragma omp atomic' update of an array of unknown length whose index the
// body computes and then changes (b clamped after its declaration) is refused: the indices
// the loop updates cannot be found before it
#pragma adsoac grad
void f(int n, const int *bin, const double *w, double *h) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int b = bin[i];
    if (b > 3) b = 3;
#pragma omp atomic
    h[b] += w[i];
  }
}
