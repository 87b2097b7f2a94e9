// --remarks on OpenMP loops (language.md 11): per loop, the SOACs it became and what was
// taken on the programmer's word; a region's hand-written reduction (a partial per thread,
// merged under atomic after the loop)
#pragma adsoac grad
double f(int n, int nb, const int *bin, const double *x, double *y) {
  double s = 0.0, last = 0.0, h[8] = {0};
#pragma omp parallel for reduction(+: s) lastprivate(last) schedule(static)
  for (int i = 0; i < n; i++) {
    last = x[i] * 2.0;
    y[i] = last;
    s += x[i];
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    h[bin[i] % 8] += x[i];
  }
  double t = 0.0;
#pragma omp parallel
  {
    double part = 0.0;
#pragma omp for
    for (int i = 0; i < n; i++) part += x[i] * x[i];
#pragma omp atomic
    t += part;
  }
  return s + last + h[nb % 8] + t;
}
