// runtime/src/rt_mpi.h: the MPI collectives of marked functions and their derivatives
// (language.md §10), embedded only into the files whose functions call MPI.  Each takes
// arrays of its own (the generated code copies the program's buffers into and out of them)
// and returns 0, or 1 after recording the error (adsoac_fail_).
//
//   allreduce  out = in_0 OP ... OP in_{P-1}, element by element (OP: + * min max)
//   bcast      out = in of rank root
//   allgather  out = in_0, in_1, ..., in_{P-1} (count elements each)
//
// _vjp: in_bar += the adjoint of in, from out_bar, the adjoint of out on every rank: of a
// sum, the sum of the out_bars; of min and max, that sum on the rank whose value wins (the
// lowest rank of a tie, as MPI_MINLOC and MPI_MAXLOC choose); of a product, that sum times
// the product of the other ranks' values (language.md §7's zeros: exactly one zero gets the
// product of the others, every other element 0); of a broadcast, the sum reduced to the root;
// of an allgather, each rank's block of the sum (MPI_Reduce_scatter_block).
// _jvp: out_dot, the tangent of out: the same collective over the tangents (sum, broadcast,
// allgather), the winner's tangent (min, max), the product rule (product).
//
// The CUDA target's arrays are device memory: they are staged through host copies unless
// ADSOAC_CUDA_AWARE_MPI is defined (an MPI library that takes device pointers).
#include <mpi.h>

typedef enum { ADSOAC_MPI_SUM, ADSOAC_MPI_PROD, ADSOAC_MPI_MIN, ADSOAC_MPI_MAX } AdsoacMpiOp;

static inline __attribute__((unused)) int adsoac_mpi_(int rc, const char *fn, const char *what) {
  if (rc == MPI_SUCCESS) return 0;
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS) snprintf(s, sizeof s, "error %d", rc);
  return adsoac_fail_(fn, "%s failed: %s", what, s);
}

static inline __attribute__((unused)) int adsoac_mpi_count_(long n, const char *fn) {
  if (n < 0 || n > INT_MAX) return adsoac_fail_(fn, "an MPI collective of %ld elements", n);
  return 0;
}

static inline __attribute__((unused)) MPI_Op adsoac_mpi_op_(AdsoacMpiOp op) {
  return op == ADSOAC_MPI_SUM ? MPI_SUM : op == ADSOAC_MPI_PROD ? MPI_PROD
         : op == ADSOAC_MPI_MIN ? MPI_MIN : MPI_MAX;
}

static inline __attribute__((unused)) int adsoac_comm_rank(MPI_Comm comm, int *r, const char *fn) {
  return adsoac_mpi_(MPI_Comm_rank(comm, r), fn, "MPI_Comm_rank");
}

static inline __attribute__((unused)) int adsoac_comm_size(MPI_Comm comm, int *p, const char *fn) {
  return adsoac_mpi_(MPI_Comm_size(comm, p), fn, "MPI_Comm_size");
}

static inline __attribute__((unused)) size_t adsoac_mpi_size_(MPI_Datatype t) {
  int s = 0;
  MPI_Type_size(t, &s);
  return (size_t)s;
}

// ---- the collectives, on host arrays ----

static inline __attribute__((unused)) int adsoac_allreduce_h_(const void *in, void *out, long n,
                                                              MPI_Datatype t, AdsoacMpiOp op,
                                                              MPI_Comm comm, const char *fn) {
  if (adsoac_mpi_count_(n, fn)) return 1;
  return adsoac_mpi_(MPI_Allreduce(in, out, (int)n, t, adsoac_mpi_op_(op), comm), fn, "MPI_Allreduce");
}

static inline __attribute__((unused)) int adsoac_bcast_h_(const void *in, void *out, long n,
                                                          MPI_Datatype t, int root, MPI_Comm comm,
                                                          const char *fn) {
  if (adsoac_mpi_count_(n, fn)) return 1;
  if (n) memcpy(out, in, (size_t)n * adsoac_mpi_size_(t));
  return adsoac_mpi_(MPI_Bcast(out, (int)n, t, root, comm), fn, "MPI_Bcast");
}

static inline __attribute__((unused)) int adsoac_allgather_h_(const void *in, void *out, long n,
                                                              MPI_Datatype t, MPI_Comm comm,
                                                              const char *fn) {
  if (adsoac_mpi_count_(n, fn)) return 1;
  return adsoac_mpi_(MPI_Allgather(in, (int)n, t, out, (int)n, t, comm), fn, "MPI_Allgather");
}

// ---- derivatives, for double (d) and float (f) ----

// The factor of element k's tangent or adjoint in a min, max or product over the ranks: 1 or
// 0 (the winning rank's or not), the product of the other ranks' values.  fac[0:n].
#define ADSOAC_MPI_FACTORS(T, SFX, PAIR_T)                                                       \
  typedef struct {                                                                               \
    T v;                                                                                         \
    int r;                                                                                       \
  } AdsoacMpiPair_##SFX;                                                                         \
  static inline __attribute__((unused)) int adsoac_mpi_factors_##SFX(                           \
      AdsoacMpiOp op, const T *in, T *fac, long n, MPI_Comm comm, const char *fn) {             \
    int me = 0;                                                                                  \
    if (adsoac_comm_rank(comm, &me, fn)) return 1;                                               \
    if (op == ADSOAC_MPI_MIN || op == ADSOAC_MPI_MAX) { /* the lowest rank of a tie wins */      \
      AdsoacMpiPair_##SFX *p = (AdsoacMpiPair_##SFX *)malloc(2 * (size_t)(n ? n : 1) *          \
                                                             sizeof *p);                         \
      if (!p) return adsoac_fail_(fn, "out of memory in an MPI derivative");                     \
      for (long k = 0; k < n; k++) p[k].v = in[k], p[k].r = me;                                  \
      int bad = adsoac_mpi_(MPI_Allreduce(p, p + n, (int)n, PAIR_T,                             \
                                          op == ADSOAC_MPI_MIN ? MPI_MINLOC : MPI_MAXLOC, comm), \
                            fn, "MPI_Allreduce");                                                \
      for (long k = 0; !bad && k < n; k++) fac[k] = p[n + k].r == me ? (T)1 : (T)0;              \
      free(p);                                                                                   \
      return bad;                                                                                \
    }                                                                                            \
    /* product: the product of the nonzero values and the number of zeros, over the ranks */     \
    T *nz = (T *)malloc(2 * (size_t)(n ? n : 1) * sizeof *nz);                                   \
    int *z = (int *)malloc(2 * (size_t)(n ? n : 1) * sizeof *z);                                 \
    if (!nz || !z) {                                                                             \
      free(nz), free(z);                                                                         \
      return adsoac_fail_(fn, "out of memory in an MPI derivative");                             \
    }                                                                                            \
    for (long k = 0; k < n; k++) nz[k] = in[k] != 0 ? in[k] : (T)1, z[k] = in[k] == 0;           \
    int bad = adsoac_mpi_(MPI_Allreduce(nz, nz + n, (int)n, sizeof(T) == sizeof(double)          \
                                            ? MPI_DOUBLE : MPI_FLOAT, MPI_PROD, comm),           \
                          fn, "MPI_Allreduce") ||                                                \
              adsoac_mpi_(MPI_Allreduce(z, z + n, (int)n, MPI_INT, MPI_SUM, comm), fn,           \
                          "MPI_Allreduce");                                                      \
    for (long k = 0; !bad && k < n; k++) {                                                       \
      T p = nz[n + k];                                                                           \
      int zs = z[n + k];                                                                         \
      fac[k] = zs == 0 ? p / in[k] : zs == 1 && in[k] == 0 ? p : (T)0;                          \
    }                                                                                            \
    free(nz), free(z);                                                                           \
    return bad;                                                                                  \
  }                                                                                              \
                                                                                                 \
  static inline __attribute__((unused)) int adsoac_allreduce_vjp_##SFX(                         \
      AdsoacMpiOp op, const T *in, T *in_bar, const T *out_bar, long n, MPI_Comm comm,          \
      const char *fn) {                                                                          \
    if (adsoac_mpi_count_(n, fn)) return 1;                                                      \
    T *g = (T *)malloc(2 * (size_t)(n ? n : 1) * sizeof *g), *fac = g + n;                      \
    if (!g) return adsoac_fail_(fn, "out of memory in an MPI derivative");                       \
    int bad = adsoac_allreduce_h_(out_bar, g, n, sizeof(T) == sizeof(double) ? MPI_DOUBLE       \
                                                                             : MPI_FLOAT,        \
                                  ADSOAC_MPI_SUM, comm, fn) ||                                   \
              (op != ADSOAC_MPI_SUM && adsoac_mpi_factors_##SFX(op, in, fac, n, comm, fn));     \
    for (long k = 0; !bad && k < n; k++) in_bar[k] += op == ADSOAC_MPI_SUM ? g[k] : g[k] * fac[k]; \
    free(g);                                                                                     \
    return bad;                                                                                  \
  }                                                                                              \
                                                                                                 \
  static inline __attribute__((unused)) int adsoac_allreduce_jvp_##SFX(                         \
      AdsoacMpiOp op, const T *in, const T *in_dot, T *out_dot, long n, MPI_Comm comm,          \
      const char *fn) {                                                                          \
    if (adsoac_mpi_count_(n, fn)) return 1;                                                      \
    MPI_Datatype t = sizeof(T) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT;                       \
    if (op == ADSOAC_MPI_SUM) return adsoac_allreduce_h_(in_dot, out_dot, n, t, op, comm, fn);  \
    T *c = (T *)malloc(2 * (size_t)(n ? n : 1) * sizeof *c), *fac = c + n;                      \
    if (!c) return adsoac_fail_(fn, "out of memory in an MPI derivative");                       \
    int bad = adsoac_mpi_factors_##SFX(op, in, fac, n, comm, fn);                                \
    for (long k = 0; !bad && k < n; k++) c[k] = in_dot[k] * fac[k];                             \
    bad = bad || adsoac_allreduce_h_(c, out_dot, n, t, ADSOAC_MPI_SUM, comm, fn);               \
    free(c);                                                                                     \
    return bad;                                                                                  \
  }                                                                                              \
                                                                                                 \
  static inline __attribute__((unused)) int adsoac_bcast_vjp_##SFX(                             \
      const T *out_bar, T *in_bar, long n, int root, MPI_Comm comm, const char *fn) {           \
    if (adsoac_mpi_count_(n, fn)) return 1;                                                      \
    int me = 0;                                                                                  \
    T *g = (T *)malloc((size_t)(n ? n : 1) * sizeof *g);                                         \
    if (!g) return adsoac_fail_(fn, "out of memory in an MPI derivative");                       \
    int bad = adsoac_comm_rank(comm, &me, fn) ||                                                 \
              adsoac_mpi_(MPI_Reduce(out_bar, g, (int)n, sizeof(T) == sizeof(double)            \
                                         ? MPI_DOUBLE : MPI_FLOAT, MPI_SUM, root, comm),        \
                          fn, "MPI_Reduce");                                                     \
    for (long k = 0; !bad && me == root && k < n; k++) in_bar[k] += g[k];                        \
    free(g);                                                                                     \
    return bad;                                                                                  \
  }                                                                                              \
                                                                                                 \
  static inline __attribute__((unused)) int adsoac_allgather_vjp_##SFX(                         \
      const T *out_bar, T *in_bar, long n, MPI_Comm comm, const char *fn) {                     \
    if (adsoac_mpi_count_(n, fn)) return 1;                                                      \
    T *g = (T *)malloc((size_t)(n ? n : 1) * sizeof *g);                                         \
    if (!g) return adsoac_fail_(fn, "out of memory in an MPI derivative");                       \
    int bad = adsoac_mpi_(MPI_Reduce_scatter_block(out_bar, g, (int)n, sizeof(T) ==             \
                                                   sizeof(double) ? MPI_DOUBLE : MPI_FLOAT,     \
                                                   MPI_SUM, comm),                               \
                          fn, "MPI_Reduce_scatter_block");                                       \
    for (long k = 0; !bad && k < n; k++) in_bar[k] += g[k];                                      \
    free(g);                                                                                     \
    return bad;                                                                                  \
  }

ADSOAC_MPI_FACTORS(double, d, MPI_DOUBLE_INT)
ADSOAC_MPI_FACTORS(float, f, MPI_FLOAT_INT)
#undef ADSOAC_MPI_FACTORS

// The number of ranks of comm (the length of an allgather's result: count times it).
static inline __attribute__((unused)) long adsoac_mpi_ranks_(MPI_Comm comm) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  return p;
}

#ifdef __CUDACC__
// Host copies of device arrays around a collective (MPI without CUDA support): h[k] holds
// `bytes` bytes, copied from dev when `in`; adsoac_unstage_ copies one back.
typedef struct {
  void *h[3];
} AdsoacStage;

static inline __attribute__((unused)) int adsoac_stage_(AdsoacStage *s, int k, const void *dev,
                                                        size_t bytes, bool in, const char *fn) {
  s->h[k] = malloc(bytes ? bytes : 1);
  if (!s->h[k]) return adsoac_fail_(fn, "out of memory staging an MPI buffer");
  return in && bytes ? adsoac_load(s->h[k], dev, bytes, fn) : 0;
}

static inline __attribute__((unused)) int adsoac_unstage_(void *dev, const void *host, size_t bytes,
                                                          const char *fn) {
  return bytes ? adsoac_store(dev, host, bytes, fn) : 0;
}

static inline __attribute__((unused)) void adsoac_stage_free_(AdsoacStage *s) {
  for (int k = 0; k < 3; k++) free(s->h[k]), s->h[k] = NULL;
}
#endif
