// Hand-made stand-in for `adsoac --target=c bench/cprod.c -o cprod_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline before
// the translator exists. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output for a declared operator with an inverse (forward sweep:
// the complex product with per-thread partials; then a separate adjoint sweep
// that recovers each factor's cotangent with the inverse, Q_k = P / z_k).

typedef struct { double re, im; } cx;

static cx cx_mul(cx p, cx q) { return (cx){p.re * q.re - p.im * q.im, p.re * q.im + p.im * q.re}; }

// p / q = p * conj(q) / |q|^2
static cx cx_div(cx p, cx q) {
  double d = q.re * q.re + q.im * q.im;
  return (cx){(p.re * q.re + p.im * q.im) / d, (p.im * q.re - p.re * q.im) / d};
}

static cx cprod_forward(int n, double c, const double *restrict re,
                        const double *restrict im) {
  cx t = {1.0, 0.0};
#pragma omp parallel
  {
    cx r = {1.0, 0.0};
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; i++)
      r = cx_mul(r, (cx){re[i], im[i]});
#pragma omp critical
    t = cx_mul(t, r);
  }
  return cx_mul((cx){c, 0.5}, t);
}

double cprod(int n, double c, const double *restrict re, const double *restrict im) {
  cx z = cprod_forward(n, c, re, im);
  return z.re + 2.0 * z.im;
}

double cprod_vjp(int n, double c, double *c_bar, const double *restrict re,
                 double *restrict re_bar, const double *restrict im,
                 double *restrict im_bar, double ret_bar) {
  cx z = cprod_forward(n, c, re, im);           // forward sweep
  double zr_bar = ret_bar, zi_bar = 2.0 * ret_bar;  // reverse sweep
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
    cx q = cx_div(z, (cx){re[i], im[i]});       // d z / d z_i by the inverse
    re_bar[i] += zr_bar * q.re + zi_bar * q.im;
    im_bar[i] += -zr_bar * q.im + zi_bar * q.re;
  }
  cx q = cx_div(z, (cx){c, 0.5});
  *c_bar += zr_bar * q.re + zi_bar * q.im;
  return z.re + 2.0 * z.im;
}

double cprod_jvp(int n, double c, double c_dot, const double *restrict re,
                 const double *restrict re_dot, const double *restrict im,
                 const double *restrict im_dot, double *ret_dot) {
  cx z = cprod_forward(n, c, re, im);
  double zr_dot = 0.0, zi_dot = 0.0;
#pragma omp parallel for schedule(static) reduction(+: zr_dot, zi_dot)
  for (int i = 0; i < n; i++) {
    cx q = cx_div(z, (cx){re[i], im[i]});
    cx d = cx_mul(q, (cx){re_dot[i], im_dot[i]});
    zr_dot += d.re;
    zi_dot += d.im;
  }
  cx q = cx_div(z, (cx){c, 0.5});
  zr_dot += q.re * c_dot;
  zi_dot += q.im * c_dot;
  *ret_dot = zr_dot + 2.0 * zi_dot;
  return z.re + 2.0 * z.im;
}
