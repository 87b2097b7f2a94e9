// DELIBERATELY WRONG: the reverse scan misses a transpose, Rb_{i+1} M_{i+1} instead of Rb_{i+1} M_{i+1}^T (see bench/README.md).
// Hand-made stand-in for `adsoac --target=c bench/matscan.c -o matscan_grad.c`, used by
// `bench/run.sh --fake bench/selftest` to exercise the bench pipeline without
// the translator. Plain OpenMP, interface per docs/language.md §2.
// Shaped like AD output for a scan with a declared operator (2x2 matrix product):
// a forward sweep that stores the exclusive prefixes R_{i-1}, the loop body as a
// map over them (with its own adjoint), and in reverse the scan's adjoint through
// its step Jacobians (Rb_i = yb_i + Rb_{i+1} M_{i+1}^T, a reverse scan;
// Mb_i = R_{i-1}^T Rb_i). The scans run sequentially here (the stand-in checks the
// pipeline, not speed); the maps are parallel.
#include <stdlib.h>

typedef struct { double m00, m01, m10, m11; } m2;

static m2 mul(m2 x, m2 y) {  // x y
  return (m2){x.m00 * y.m00 + x.m01 * y.m10, x.m00 * y.m01 + x.m01 * y.m11,
              x.m10 * y.m00 + x.m11 * y.m10, x.m10 * y.m01 + x.m11 * y.m11};
}
static m2 add(m2 x, m2 y) { return (m2){x.m00 + y.m00, x.m01 + y.m01, x.m10 + y.m10, x.m11 + y.m11}; }
static m2 tr(m2 x) { return (m2){x.m00, x.m10, x.m01, x.m11}; }
static double dotc(m2 r) { return r.m00 + 2.0 * r.m01 - r.m10 + 0.5 * r.m11; }
static m2 elem(const double *p00, const double *p01, const double *p10,
               const double *p11, int i) {
  return (m2){1.0 + p00[i], p01[i], p10[i], 1.0 + p11[i]};
}

// rp[i] = R_{i-1} = M_0 ... M_{i-1}, R_{-1} = I (caller frees).
static m2 *prefix_mat(int n, const double *p00, const double *p01, const double *p10,
                      const double *p11) {
  m2 *rp = malloc((size_t)(n > 0 ? n : 1) * sizeof *rp);
  m2 r = {1.0, 0.0, 0.0, 1.0};
  for (int i = 0; i < n; i++) {
    rp[i] = r;
    r = mul(r, elem(p00, p01, p10, p11, i));
  }
  return rp;
}

double matscan(int n, const double *restrict p00, const double *restrict p01,
               const double *restrict p10, const double *restrict p11,
               const double *restrict w) {
  m2 *rp = prefix_mat(n, p00, p01, p10, p11);
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += w[i] * dotc(mul(rp[i], elem(p00, p01, p10, p11, i)));
  free(rp);
  return s;
}

double matscan_vjp(int n, const double *restrict p00, double *restrict p00_bar,
                   const double *restrict p01, double *restrict p01_bar,
                   const double *restrict p10, double *restrict p10_bar,
                   const double *restrict p11, double *restrict p11_bar,
                   const double *restrict w, double *restrict w_bar, double ret_bar) {
  m2 *rp = prefix_mat(n, p00, p01, p10, p11);  // forward sweep
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int i = 0; i < n; i++) {                // body: s += w <C, R_i>, and its adjoint
    double y = dotc(mul(rp[i], elem(p00, p01, p10, p11, i)));
    s += w[i] * y;
    w_bar[i] += ret_bar * y;
  }
  // Rb_i = ret_bar w[i] C + Rb_{i+1} M_{i+1}^T, Mb_i = R_{i-1}^T Rb_i.
  const m2 C = {1.0, 2.0, -1.0, 0.5};
  m2 Q = {0.0, 0.0, 0.0, 0.0};  // Rb_{i+1} M_{i+1}^T
  for (int i = n - 1; i >= 0; i--) {
    double g = ret_bar * w[i];
    m2 Rb = add((m2){g * C.m00, g * C.m01, g * C.m10, g * C.m11}, Q);
    m2 Mb = mul(tr(rp[i]), Rb);
    p00_bar[i] += Mb.m00;
    p01_bar[i] += Mb.m01;
    p10_bar[i] += Mb.m10;
    p11_bar[i] += Mb.m11;
    Q = mul(Rb, elem(p00, p01, p10, p11, i));  // wrong: M_i instead of M_i^T
  }
  free(rp);
  return s;
}

double matscan_jvp(int n, const double *restrict p00, const double *restrict p00_dot,
                   const double *restrict p01, const double *restrict p01_dot,
                   const double *restrict p10, const double *restrict p10_dot,
                   const double *restrict p11, const double *restrict p11_dot,
                   const double *restrict w, const double *restrict w_dot,
                   double *ret_dot) {
  m2 *rp = prefix_mat(n, p00, p01, p10, p11);
  m2 *rp_dot = malloc((size_t)(n > 0 ? n : 1) * sizeof *rp_dot);
  m2 r_dot = {0.0, 0.0, 0.0, 0.0};  // the scan of dual numbers
  for (int i = 0; i < n; i++) {
    rp_dot[i] = r_dot;
    m2 m_dot = {p00_dot[i], p01_dot[i], p10_dot[i], p11_dot[i]};
    r_dot = add(mul(r_dot, elem(p00, p01, p10, p11, i)), mul(rp[i], m_dot));
  }
  double s = 0.0, s_dot = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s, s_dot)
  for (int i = 0; i < n; i++) {
    m2 m = elem(p00, p01, p10, p11, i);
    m2 m_dot = {p00_dot[i], p01_dot[i], p10_dot[i], p11_dot[i]};
    double y = dotc(mul(rp[i], m));
    double y_dot = dotc(add(mul(rp_dot[i], m), mul(rp[i], m_dot)));
    s += w[i] * y;
    s_dot += w_dot[i] * y + w[i] * y_dot;
  }
  free(rp);
  free(rp_dot);
  *ret_dot = s_dot;
  return s;
}
