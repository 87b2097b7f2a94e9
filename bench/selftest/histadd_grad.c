// Hand-made stand-in for `adsoac --target=c bench/histadd.c -o histadd_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline without
// the translator. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output for a hist(+): the updates as atomic adds; in reverse, the
// bins' adjoints pass through unchanged (d h_final / d h0 = 1) and each update's
// adjoint reads the seed of its bin. Updates outside [0, k) are skipped.

static int in_range(int b, int k) { return b >= 0 && b < k; }

void hsum(int n, int k, const int *restrict bin, const double *restrict w,
          double *restrict h) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    if (in_range(bin[i], k)) {
      double v = w[i] * w[i];
#pragma omp atomic
      h[bin[i]] += v;
    }
}

void hsum_vjp(int n, int k, const int *restrict bin, const double *restrict w,
              double *restrict w_bar, double *restrict h, double *restrict h_bar) {
  hsum(n, k, bin, w, h);  // forward sweep
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)  // reverse: h_bar is the adjoint of every update's result
    if (in_range(bin[i], k)) w_bar[i] += h_bar[bin[i]] * (2.0 * w[i]);
}

void hsum_jvp(int n, int k, const int *restrict bin, const double *restrict w,
              const double *restrict w_dot, double *restrict h,
              double *restrict h_dot) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    if (in_range(bin[i], k)) {
      double v = w[i] * w[i], v_dot = 2.0 * w[i] * w_dot[i];
#pragma omp atomic
      h[bin[i]] += v;
#pragma omp atomic
      h_dot[bin[i]] += v_dot;
    }
}
