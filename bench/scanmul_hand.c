// Hand-written OpenMP adjoint of cumprod (bench/scanmul.c): what a careful
// programmer writes by hand. Same signature and semantics as adsoac's cumprod_vjp
// (language.md §2.1): returns the primal and accumulates into c_bar, x_bar, w_bar.
// With p_i = c x[0] ... x[i] (p_{-1} = c) and s = sum_i w[i] p_i, the classic
// reverse recurrence, division-free (so exact with zero factors too):
//   pbar_i = w[i] + q_{i+1},  q_i = x[i] pbar_i  (q_n = 0),
//   d s/d x[i] = pbar_i p_{i-1},  d s/d w[i] = p_i,  d s/d c = q_0.
// A two-pass parallel scan over one chunk of whole blocks per thread:
//   pass 1 (forward, parallel): per chunk [lo, hi), alpha = prod x and
//     beta = sum_i w[i] a_i with a_i the chunk-local inclusive prefix product, and a
//     at the start of each block (a checkpoint). The reverse carry crosses the chunk
//     as the affine map q_lo = alpha q_hi + beta;
//   serial: each chunk's offset O (c times the earlier chunks' products, p = O a) and
//     incoming reverse carry Q (q_hi), from the last chunk back;
//   pass 2 (reverse, parallel): per chunk, blocks last to first: recompute p over the
//     block from its checkpoint into a small buffer (in cache), then run the reverse
//     recurrence backwards over it (primal and adjoints).
// x and w are read twice, x_bar and w_bar once; no array of n temporaries.
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { BLK = 1024 };  // elements per block (checkpoint interval)

double cumprod_hand(int n, double c, double *restrict c_bar,
                    const double *restrict x, double *restrict x_bar,
                    const double *restrict w, double *restrict w_bar,
                    double ret_bar) {
  if (n <= 0) return 0.0;
  int nb = (n + BLK - 1) / BLK;
#ifdef _OPENMP
  int nc = omp_get_max_threads();
#else
  int nc = 1;
#endif
  if (nc > nb) nc = nb;
  double *ck = malloc((size_t)nb * sizeof *ck);      // local prefix product before each block
  double *ch = malloc(4 * (size_t)nc * sizeof *ch);
  double *AL = ch, *BE = ch + nc, *O = ch + 2 * nc, *Q = ch + 3 * nc;
#pragma omp parallel for schedule(static)
  for (int t = 0; t < nc; t++) {
    int k0 = (int)((long long)nb * t / nc), k1 = (int)((long long)nb * (t + 1) / nc);
    double a = 1.0, be = 0.0;
    for (int k = k0; k < k1; k++) {
      ck[k] = a;
      int lo = k * BLK, hi = lo + BLK < n ? lo + BLK : n;
      for (int i = lo; i < hi; i++) {
        a *= x[i];
        be += w[i] * a;
      }
    }
    AL[t] = a; BE[t] = be;
  }
  double o = c;
  for (int t = 0; t < nc; t++) {
    O[t] = o;
    o *= AL[t];
  }
  double q = 0.0;
  for (int t = nc - 1; t >= 0; t--) {
    Q[t] = q;
    q = AL[t] * q + BE[t];
  }
  *c_bar += ret_bar * q;  // q_0
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int t = 0; t < nc; t++) {
    int k0 = (int)((long long)nb * t / nc), k1 = (int)((long long)nb * (t + 1) / nc);
    double qq = Q[t];  // q of the first element after the current block
    double buf[BLK];
    for (int k = k1 - 1; k >= k0; k--) {
      int lo = k * BLK, hi = lo + BLK < n ? lo + BLK : n;
      double p = O[t] * ck[k];  // p_{lo-1}
      for (int i = lo; i < hi; i++) {
        buf[i - lo] = p;         // p_{i-1}
        p *= x[i];
      }
      for (int i = hi - 1; i >= lo; i--) {
        double pp = buf[i - lo], pi = pp * x[i], pb = w[i] + qq;
        s += w[i] * pi;
        x_bar[i] += ret_bar * (pb * pp);
        w_bar[i] += ret_bar * pi;
        qq = x[i] * pb;
      }
    }
  }
  free(ck);
  free(ch);
  return s;
}
