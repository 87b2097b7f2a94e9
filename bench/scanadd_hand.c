// Hand-written OpenMP adjoint of cumloss (bench/scanadd.c): what a careful
// programmer writes by hand. Same signature and semantics as adsoac's cumloss_vjp
// (language.md §2.1): returns the primal and accumulates into x_bar, w_bar.
// With A_i = x[0] + ... + x[i] and s = sum_i w[i] A_i^2:
//   d s/d w[i] = A_i^2,   d s/d x[j] = sum_{i >= j} 2 w[i] A_i   (a reverse suffix sum).
// A two-pass parallel scan over one chunk of whole blocks per thread:
//   pass 1 (forward, parallel): per chunk, the sum of x, sum w, sum w*a with a the
//     chunk-local prefix sum, and a at the start of each block (a checkpoint);
//   serial: each chunk's offset O (exclusive prefix of the chunk sums, so A = O + a)
//     and its suffix carry T (sum of 2 w A over the later chunks: 2 (O sum w + sum w a));
//   pass 2 (reverse, parallel): per chunk, blocks last to first: recompute A over the
//     block from its checkpoint into a small buffer (in cache), then walk it backwards
//     accumulating the suffix sum, the primal and both adjoints.
// x and w are read twice, x_bar and w_bar once; no array of n temporaries.
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { BLK = 1024 };  // elements per block (checkpoint interval)

double cumloss_hand(int n, const double *restrict x, double *restrict x_bar,
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
  double *ck = malloc((size_t)nb * sizeof *ck);           // local prefix before each block
  double *ch = malloc(5 * (size_t)nc * sizeof *ch);       // per chunk: sum x, sum w, sum w a, O, T
  double *X = ch, *SW = ch + nc, *SWA = ch + 2 * nc, *O = ch + 3 * nc, *T = ch + 4 * nc;
#pragma omp parallel for schedule(static)
  for (int c = 0; c < nc; c++) {
    int k0 = (int)((long long)nb * c / nc), k1 = (int)((long long)nb * (c + 1) / nc);
    double a = 0.0, sw = 0.0, swa = 0.0;
    for (int k = k0; k < k1; k++) {
      ck[k] = a;
      int lo = k * BLK, hi = lo + BLK < n ? lo + BLK : n;
      for (int i = lo; i < hi; i++) {
        a += x[i];
        sw += w[i];
        swa += w[i] * a;
      }
    }
    X[c] = a; SW[c] = sw; SWA[c] = swa;
  }
  // Offsets O and suffix carries T (sum of 2 w A over the chunks after c).
  double off = 0.0;
  for (int c = 0; c < nc; c++) {
    O[c] = off;
    off += X[c];
  }
  double t = 0.0;
  for (int c = nc - 1; c >= 0; c--) {
    T[c] = t;
    t += 2.0 * (O[c] * SW[c] + SWA[c]);  // sum of 2 w A over chunk c
  }
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+: s)
  for (int c = 0; c < nc; c++) {
    int k0 = (int)((long long)nb * c / nc), k1 = (int)((long long)nb * (c + 1) / nc);
    double r = T[c];  // sum of 2 w_i A_i over the i after the current block
    double buf[BLK];
    for (int k = k1 - 1; k >= k0; k--) {
      int lo = k * BLK, hi = lo + BLK < n ? lo + BLK : n;
      double A = O[c] + ck[k];
      for (int i = lo; i < hi; i++) {
        A += x[i];
        buf[i - lo] = A;
      }
      for (int i = hi - 1; i >= lo; i--) {
        double Ai = buf[i - lo], wa = w[i] * Ai;
        s += wa * Ai;
        r += 2.0 * wa;
        x_bar[i] += ret_bar * r;
        w_bar[i] += ret_bar * (Ai * Ai);
      }
    }
  }
  free(ck);
  free(ch);
  return s;
}
