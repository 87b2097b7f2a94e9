// Hand-written OpenMP adjoint of matscan (bench/matscan.c): what a careful
// programmer writes by hand. Same signature and semantics as adsoac's matscan_vjp
// (language.md §2.1): returns the primal and accumulates into p00_bar ... p11_bar, w_bar.
// With M_i = I + P_i, R_i = M_0 ... M_i (R_{-1} = I), C = [[1, 2], [-1, 0.5]] and
// s = sum_i w[i] <C, R_i> (<.,.> the Frobenius product), from the closed form:
//   Rbar_i = w[i] C + Q_{i+1},  Q_i = Rbar_i M_i^T  (Q_n = 0, i.e. Rbar_i = Ybar_i + Rbar_{i+1} M_{i+1}^T),
//   d s/d P_i = Mbar_i = R_{i-1}^T Rbar_i,  d s/d w[i] = <C, R_i>.
// A two-pass parallel scan over one chunk of whole blocks per thread:
//   pass 1 (forward, parallel): per chunk [lo, hi), its product L = M_lo ... M_{hi-1},
//     W = sum_i w[i] L_i with L_i = M_lo ... M_i (the reverse carry crosses the chunk
//     as Q_lo = C W^T + Q_hi L^T), and L local at the start of each block (a
//     checkpoint: R_{i-1} = R_in L with R_in the chunk's incoming prefix);
//   serial: each chunk's incoming prefix R_in (forward) and reverse carry Q_hi (backward);
//   pass 2 (reverse, parallel): per chunk, blocks last to first: recompute R over the
//     block from its checkpoint into a small buffer (in cache), then run the reverse
//     recurrence backwards over it (primal and adjoints).
// The inputs are read twice, the adjoints once; no array of n temporaries.
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { BLK = 1024 };  // elements per block (checkpoint interval)

typedef struct { double m00, m01, m10, m11; } M2;  // row-major 2x2

static inline M2 mm(M2 x, M2 y) {  // x y
  return (M2){x.m00 * y.m00 + x.m01 * y.m10, x.m00 * y.m01 + x.m01 * y.m11,
              x.m10 * y.m00 + x.m11 * y.m10, x.m10 * y.m01 + x.m11 * y.m11};
}
static inline M2 mmT(M2 x, M2 y) {  // x y^T
  return (M2){x.m00 * y.m00 + x.m01 * y.m01, x.m00 * y.m10 + x.m01 * y.m11,
              x.m10 * y.m00 + x.m11 * y.m01, x.m10 * y.m10 + x.m11 * y.m11};
}
static inline M2 mTm(M2 x, M2 y) {  // x^T y
  return (M2){x.m00 * y.m00 + x.m10 * y.m10, x.m00 * y.m01 + x.m10 * y.m11,
              x.m01 * y.m00 + x.m11 * y.m10, x.m01 * y.m01 + x.m11 * y.m11};
}
static inline double dotC(M2 r) { return r.m00 + 2.0 * r.m01 - r.m10 + 0.5 * r.m11; }

double matscan_hand(int n, const double *restrict p00, double *restrict p00_bar,
                    const double *restrict p01, double *restrict p01_bar,
                    const double *restrict p10, double *restrict p10_bar,
                    const double *restrict p11, double *restrict p11_bar,
                    const double *restrict w, double *restrict w_bar, double ret_bar) {
  if (n <= 0) return 0.0;
  const M2 I = {1.0, 0.0, 0.0, 1.0}, C = {1.0, 2.0, -1.0, 0.5}, Z = {0.0, 0.0, 0.0, 0.0};
  int nb = (n + BLK - 1) / BLK;
#ifdef _OPENMP
  int nc = omp_get_max_threads();
#else
  int nc = 1;
#endif
  if (nc > nb) nc = nb;
  M2 *ck = malloc((size_t)nb * sizeof *ck);  // local prefix product before each block
  M2 *ch = malloc(4 * (size_t)nc * sizeof *ch);
  M2 *L = ch, *W = ch + nc, *RIN = ch + 2 * nc, *Q = ch + 3 * nc;
#pragma omp parallel for schedule(static)
  for (int t = 0; t < nc; t++) {
    int k0 = (int)((long long)nb * t / nc), k1 = (int)((long long)nb * (t + 1) / nc);
    M2 l = I, ws = Z;
    for (int k = k0; k < k1; k++) {
      ck[k] = l;
      int lo = k * BLK, hi = lo + BLK < n ? lo + BLK : n;
      for (int i = lo; i < hi; i++) {
        l = mm(l, (M2){1.0 + p00[i], p01[i], p10[i], 1.0 + p11[i]});
        ws.m00 += w[i] * l.m00; ws.m01 += w[i] * l.m01;
        ws.m10 += w[i] * l.m10; ws.m11 += w[i] * l.m11;
      }
    }
    L[t] = l; W[t] = ws;
  }
  M2 r = I;
  for (int t = 0; t < nc; t++) {
    RIN[t] = r;
    r = mm(r, L[t]);
  }
  M2 q = Z;
  for (int t = nc - 1; t >= 0; t--) {
    Q[t] = q;
    M2 cw = mmT(C, W[t]), ql = mmT(q, L[t]);  // Q_lo = C W^T + Q_hi L^T
    q = (M2){cw.m00 + ql.m00, cw.m01 + ql.m01, cw.m10 + ql.m10, cw.m11 + ql.m11};
  }
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int t = 0; t < nc; t++) {
    int k0 = (int)((long long)nb * t / nc), k1 = (int)((long long)nb * (t + 1) / nc);
    M2 qq = Q[t];  // Q of the first element after the current block
    M2 buf[BLK];
    for (int k = k1 - 1; k >= k0; k--) {
      int lo = k * BLK, hi = lo + BLK < n ? lo + BLK : n;
      M2 R = mm(RIN[t], ck[k]);  // R_{lo-1}
      for (int i = lo; i < hi; i++) {
        buf[i - lo] = R;         // R_{i-1}
        R = mm(R, (M2){1.0 + p00[i], p01[i], p10[i], 1.0 + p11[i]});
      }
      for (int i = hi - 1; i >= lo; i--) {
        M2 Mi = {1.0 + p00[i], p01[i], p10[i], 1.0 + p11[i]};
        M2 Rp = buf[i - lo], Ri = mm(Rp, Mi);
        M2 Rb = {w[i] * C.m00 + qq.m00, w[i] * C.m01 + qq.m01,
                 w[i] * C.m10 + qq.m10, w[i] * C.m11 + qq.m11};
        M2 Mb = mTm(Rp, Rb);
        double y = dotC(Ri);
        s += w[i] * y;
        p00_bar[i] += ret_bar * Mb.m00;
        p01_bar[i] += ret_bar * Mb.m01;
        p10_bar[i] += ret_bar * Mb.m10;
        p11_bar[i] += ret_bar * Mb.m11;
        w_bar[i] += ret_bar * y;
        qq = mmT(Rb, Mi);
      }
    }
  }
  free(ck);
  free(ch);
  return s;
}
