// Hand-written OpenMP adjoint of iir (bench/iir.c): what a careful programmer
// writes by hand. Same signature and semantics as adsoac's iir_vjp
// (language.md §2.1): returns the primal and accumulates into a_bar, b_bar, w_bar.
// With y_i = a[i] y_{i-1} + b[i] (y_{-1} = 0) and s = sum_i w[i] y_i, the classic
// reverse recurrence:
//   ybar_i = w[i] + q_{i+1},  q_i = a[i] ybar_i  (q_n = 0, i.e. ybar_i = w[i] + a[i+1] ybar_{i+1}),
//   d s/d b[i] = ybar_i,  d s/d a[i] = ybar_i y_{i-1},  d s/d w[i] = y_i.
// Both recurrences are scans of affine maps; done as a two-pass parallel scan
// over one chunk of whole blocks per thread:
//   pass 1 (forward, parallel): per chunk [lo, hi), its affine map
//     y_{hi-1} = alpha y_{lo-1} + B (alpha = prod a, B = the chunk-local y from 0),
//     beta = sum_i w[i] A_i with A_i = a[lo] ... a[i] (the reverse carry crosses the
//     chunk as q_lo = alpha q_hi + beta), and (A, y) local at the start of each block
//     (a checkpoint: y_{i-1} = A Y + y with Y the chunk's incoming y);
//   serial: each chunk's incoming y (forward) and incoming reverse carry q_hi (backward);
//   pass 2 (reverse, parallel): per chunk, blocks last to first: recompute y over the
//     block from its checkpoint into a small buffer (in cache), then run the reverse
//     recurrence backwards over it (primal and adjoints).
// a, b and w are read twice, the adjoints once; no array of n temporaries.
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { BLK = 1024 };  // elements per block (checkpoint interval)

double iir_hand(int n, const double *restrict a, double *restrict a_bar,
                const double *restrict b, double *restrict b_bar,
                const double *restrict w, double *restrict w_bar, double ret_bar) {
  if (n <= 0) return 0.0;
  int nb = (n + BLK - 1) / BLK;
#ifdef _OPENMP
  int nc = omp_get_max_threads();
#else
  int nc = 1;
#endif
  if (nc > nb) nc = nb;
  double *ck = malloc(2 * (size_t)nb * sizeof *ck);  // (A, y) local before each block
  double *ch = malloc(5 * (size_t)nc * sizeof *ch);
  double *AL = ch, *B = ch + nc, *BE = ch + 2 * nc, *Y = ch + 3 * nc, *Q = ch + 4 * nc;
#pragma omp parallel for schedule(static)
  for (int t = 0; t < nc; t++) {
    int k0 = (int)((long long)nb * t / nc), k1 = (int)((long long)nb * (t + 1) / nc);
    double A = 1.0, y = 0.0, be = 0.0;
    for (int k = k0; k < k1; k++) {
      ck[2 * k] = A;
      ck[2 * k + 1] = y;
      int lo = k * BLK, hi = lo + BLK < n ? lo + BLK : n;
      for (int i = lo; i < hi; i++) {
        A *= a[i];
        y = a[i] * y + b[i];
        be += w[i] * A;
      }
    }
    AL[t] = A; B[t] = y; BE[t] = be;
  }
  double yin = 0.0;
  for (int t = 0; t < nc; t++) {
    Y[t] = yin;
    yin = AL[t] * yin + B[t];
  }
  double q = 0.0;
  for (int t = nc - 1; t >= 0; t--) {
    Q[t] = q;
    q = AL[t] * q + BE[t];
  }
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int t = 0; t < nc; t++) {
    int k0 = (int)((long long)nb * t / nc), k1 = (int)((long long)nb * (t + 1) / nc);
    double qq = Q[t];  // q of the first element after the current block
    double buf[BLK];
    for (int k = k1 - 1; k >= k0; k--) {
      int lo = k * BLK, hi = lo + BLK < n ? lo + BLK : n;
      double y = ck[2 * k] * Y[t] + ck[2 * k + 1];  // y_{lo-1}
      for (int i = lo; i < hi; i++) {
        buf[i - lo] = y;                              // y_{i-1}
        y = a[i] * y + b[i];
      }
      for (int i = hi - 1; i >= lo; i--) {
        double yp = buf[i - lo], yi = a[i] * yp + b[i], yb = w[i] + qq;
        s += w[i] * yi;
        b_bar[i] += ret_bar * yb;
        a_bar[i] += ret_bar * (yb * yp);
        w_bar[i] += ret_bar * yi;
        qq = a[i] * yb;
      }
    }
  }
  free(ck);
  free(ch);
  return s;
}
