// Hand-made stand-in for `adsoac --target=c bench/histlse.c -o histlse_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline without
// the translator. Plain OpenMP, interface per docs/language.md §2.
// Not adsoac's sort-based general rule: the chain rule of the sequential loop, which
// gives the same derivatives. A forward sweep stores each bin's content before every
// update; the reverse sweep runs through the updates' partials
// d lse(a, v)/d a = exp(a - lse(a, v)) and d lse(a, v)/d v = exp(v - lse(a, v)).
// Sequential (the stand-in checks the pipeline, not speed). Updates outside [0, k) are
// skipped.
#include <math.h>
#include <stdlib.h>

static double lse(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}

static int in_range(int b, int k) { return b >= 0 && b < k; }

void hlse(int n, int k, const int *restrict bin, const double *restrict x,
          double *restrict h) {
  for (int i = 0; i < n; i++)
    if (in_range(bin[i], k)) h[bin[i]] = lse(h[bin[i]], x[i]);
}

void hlse_vjp(int n, int k, const int *restrict bin, const double *restrict x,
              double *restrict x_bar, double *restrict h, double *restrict h_bar) {
  double *before = malloc((size_t)(n > 0 ? n : 1) * sizeof *before);
  for (int i = 0; i < n; i++)  // forward sweep
    if (in_range(bin[i], k)) {
      before[i] = h[bin[i]];
      h[bin[i]] = lse(before[i], x[i]);
    }
  for (int i = n - 1; i >= 0; i--)  // reverse sweep
    if (in_range(bin[i], k)) {
      int b = bin[i];
      double a = before[i], r = lse(a, x[i]);
      x_bar[i] += h_bar[b] * exp(x[i] - r);
      h_bar[b] *= exp(a - r);
    }
  free(before);
}

void hlse_jvp(int n, int k, const int *restrict bin, const double *restrict x,
              const double *restrict x_dot, double *restrict h,
              double *restrict h_dot) {
  for (int i = 0; i < n; i++)
    if (in_range(bin[i], k)) {
      int b = bin[i];
      double a = h[b], r = lse(a, x[i]);
      h_dot[b] = exp(a - r) * h_dot[b] + exp(x[i] - r) * x_dot[i];
      h[b] = r;
    }
}
