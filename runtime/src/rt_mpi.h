// runtime/src/rt_mpi.h: the MPI collectives of marked functions and their derivatives
// (language.md §10), embedded only into the files whose functions call MPI.  Each takes
// arrays of its own (the generated code copies the program's buffers into and out of them)
// and returns 0, or 1 after recording the error (adsoac_fail_).
//
//   allreduce  out = in_0 OP ... OP in_{P-1}, element by element (OP: + * min max)
//   reduce     the same on the root (0s elsewhere)
//   bcast      out = in of rank root
//   allgather  out = in_0, in_1, ..., in_{P-1} (count elements each)
//   gather     the same on the root (0s elsewhere)
//   scatter    out = block `rank` of the root's in (count elements each)
//
// _vjp: in_bar += the adjoint of in, from out_bar, the adjoint of out on every rank: of a
// sum, the sum of the out_bars; of min and max, that sum on the rank whose value wins (the
// lowest rank of a tie, as MPI_MINLOC and MPI_MAXLOC choose); of a product, that sum times
// the product of the other ranks' values (language.md §7's zeros: exactly one zero gets the
// product of the others, every other element 0); of a broadcast, the sum reduced to the root;
// of an allgather, each rank's block of the sum (MPI_Reduce_scatter_block); of a reduce, the
// root's out_bar broadcast and then as for allreduce; of a gather, a scatter of the root's;
// of a scatter, a gather to the root.
// _jvp: out_dot, the tangent of out: the same collective over the tangents (sum, broadcast,
// gathers, scatter), the winner's tangent (min, max), the product rule (product).
//
// The CUDA target's arrays are device memory: MPI receives them where the library is
// CUDA-aware and the rule only calls MPI (adsoac_mpi_on_device_), host copies otherwise.
#include <mpi.h>

// Where an error is reported: the function's name (C target) or its call's context (CUDA:
// AdsoacCx, whose stream MPI's device buffers are read and written on).
#ifdef __CUDACC__
typedef AdsoacCx *AdsoacWhere;
#define ADSOAC_FN(w) ((w)->fn)
#else
typedef const char *AdsoacWhere;
#define ADSOAC_FN(w) (w)
#endif

typedef enum { ADSOAC_MPI_SUM, ADSOAC_MPI_PROD, ADSOAC_MPI_MIN, ADSOAC_MPI_MAX } AdsoacMpiOp;

static inline __attribute__((unused)) int adsoac_mpi_(int rc, AdsoacWhere fn, const char *what) {
  if (rc == MPI_SUCCESS) return 0;
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS) snprintf(s, sizeof s, "error %d", rc);
  return adsoac_fail_(ADSOAC_FN(fn), "%s failed: %s", what, s);
}

static inline __attribute__((unused)) int adsoac_mpi_count_(long n, AdsoacWhere fn) {
  if (n < 0 || n > INT_MAX) return adsoac_fail_(ADSOAC_FN(fn), "an MPI collective of %ld elements", n);
  return 0;
}

static inline __attribute__((unused)) MPI_Op adsoac_mpi_op_(AdsoacMpiOp op) {
  return op == ADSOAC_MPI_SUM ? MPI_SUM : op == ADSOAC_MPI_PROD ? MPI_PROD
         : op == ADSOAC_MPI_MIN ? MPI_MIN : MPI_MAX;
}

static inline __attribute__((unused)) int adsoac_comm_rank(MPI_Comm comm, int *r, AdsoacWhere fn) {
  return adsoac_mpi_(MPI_Comm_rank(comm, r), fn, "MPI_Comm_rank");
}

static inline __attribute__((unused)) int adsoac_comm_size(MPI_Comm comm, int *p, AdsoacWhere fn) {
  return adsoac_mpi_(MPI_Comm_size(comm, p), fn, "MPI_Comm_size");
}

static inline __attribute__((unused)) size_t adsoac_mpi_size_(MPI_Datatype t) {
  int s = 0;
  MPI_Type_size(t, &s);
  return (size_t)s;
}

// ---- the collectives, on host arrays ----

// The collectives, in the order of the translator's CollKind.
typedef enum {
  ADSOAC_ALLREDUCE, ADSOAC_REDUCE, ADSOAC_BCAST, ADSOAC_ALLGATHER, ADSOAC_GATHER, ADSOAC_SCATTER
} AdsoacColl;

#ifdef ADSOAC_DETERMINISTIC
// --deterministic: a floating-point reduction over the ranks as every rank's values gathered
// and folded in rank order (whatever order the MPI library would combine in), on every rank.
#define ADSOAC_MPI_FOLD(T)                                                                       \
  for (long j = 0; j < n; j++) {                                                               \
    T a = ((const T *)all)[j];                                                                   \
    for (int r = 1; r < p; r++) {                                                                \
      T b = ((const T *)all)[(size_t)r * (size_t)n + (size_t)j];                                 \
      a = op == ADSOAC_MPI_SUM ? a + b : op == ADSOAC_MPI_PROD ? a * b                         \
          : op == ADSOAC_MPI_MIN ? (b < a ? b : a) : (b > a ? b : a);                            \
    }                                                                                            \
    ((T *)out)[j] = a;                                                                           \
  }
static __attribute__((unused, noinline)) int adsoac_mpi_ordered_(AdsoacMpiOp op, const void *in,
                                                              void *out, long n, MPI_Datatype t,
                                                              int p, MPI_Comm comm,
                                                              AdsoacWhere fn) {
  size_t es = adsoac_mpi_size_(t);
  void *all = malloc((size_t)(n > 0 ? n : 1) * (size_t)p * es);
  if (!all) return adsoac_fail_(ADSOAC_FN(fn), "out of memory in an MPI reduction in rank order");
  int bad = adsoac_mpi_(MPI_Allgather(in, (int)n, t, all, (int)n, t, comm), fn, "MPI_Allgather");
  if (!bad && t == MPI_DOUBLE) ADSOAC_MPI_FOLD(double)
  else if (!bad) ADSOAC_MPI_FOLD(float)
  free(all);
  return bad;
}
#undef ADSOAC_MPI_FOLD
#endif

// Zeros or a copy of `bytes` bytes of a collective's buffer: on the device where dev (the
// CUDA target's arrays given to a CUDA-aware MPI), else in host memory.
static inline __attribute__((unused)) int adsoac_mpi_fill_(void *dst, const void *src, size_t bytes,
                                                           int dev, AdsoacWhere fn) {
  if (!bytes) return 0;
#ifdef __CUDACC__
  if (dev)
    return src ? adsoac_dev_copy(dst, src, bytes, fn)
               : adsoac_cuda_(cudaMemsetAsync(dst, 0, bytes, fn->s), fn, "cudaMemsetAsync");
#endif
  (void)dev, (void)fn;
  if (src) memcpy(dst, src, bytes);
  else memset(dst, 0, bytes);
  return 0;
}

// Before MPI reads or writes device arrays: the kernels that wrote them have finished (MPI
// does not wait for the caller's stream).
static inline __attribute__((unused)) int adsoac_mpi_sync_(int dev, AdsoacWhere fn) {
#ifdef __CUDACC__
  if (dev) return adsoac_cuda_(cudaStreamSynchronize(fn->s), fn, "cudaStreamSynchronize");
#endif
  (void)dev, (void)fn;
  return 0;
}

// out = the collective k of in over comm: n elements of type t each (an allgather's and a
// gather's out, a scatter's in: n per rank).  Off the root, a reduce's and a gather's out are
// 0s (MPI leaves them alone; the generated code copies them out on the root only).  dev: in
// and out are device arrays (CUDA target, CUDA-aware MPI; never for --deterministic's folds
// of floating-point values, which run on the host: adsoac_mpi_on_device_).
static inline __attribute__((unused)) int adsoac_mpi_at_(int dev, AdsoacColl k, AdsoacMpiOp op,
                                                         const void *in, void *out, long n,
                                                         MPI_Datatype t, int root, MPI_Comm comm,
                                                         AdsoacWhere fn) {
  int me = 0, p = 1;
  if (adsoac_mpi_count_(n, fn) || adsoac_comm_rank(comm, &me, fn) ||
      adsoac_comm_size(comm, &p, fn) || adsoac_mpi_sync_(dev, fn))
    return 1;
  size_t es = adsoac_mpi_size_(t);
  int c = (int)n, rc = MPI_SUCCESS, bad = 0;
#ifdef ADSOAC_DETERMINISTIC
  if ((k == ADSOAC_ALLREDUCE || k == ADSOAC_REDUCE) && (t == MPI_DOUBLE || t == MPI_FLOAT)) {
    if (dev) return adsoac_fail_(ADSOAC_FN(fn), "internal error: a rank-order fold of device arrays");
    if (adsoac_mpi_ordered_(op, in, out, n, t, p, comm, fn)) return 1;
    if (k == ADSOAC_REDUCE && me != root && n) memset(out, 0, (size_t)n * es);
    return 0;
  }
#endif
  switch (k) {
  case ADSOAC_ALLREDUCE: rc = MPI_Allreduce(in, out, c, t, adsoac_mpi_op_(op), comm); break;
  case ADSOAC_REDUCE:
    rc = MPI_Reduce(in, out, c, t, adsoac_mpi_op_(op), root, comm);
    if (me != root) bad = adsoac_mpi_fill_(out, NULL, (size_t)n * es, dev, fn);
    break;
  case ADSOAC_BCAST:
    bad = adsoac_mpi_fill_(out, in, (size_t)n * es, dev, fn) || adsoac_mpi_sync_(dev, fn);
    if (!bad) rc = MPI_Bcast(out, c, t, root, comm);
    break;
  case ADSOAC_ALLGATHER: rc = MPI_Allgather(in, c, t, out, c, t, comm); break;
  case ADSOAC_GATHER:
    rc = MPI_Gather(in, c, t, out, c, t, root, comm);
    if (me != root) bad = adsoac_mpi_fill_(out, NULL, (size_t)n * (size_t)p * es, dev, fn);
    break;
  case ADSOAC_SCATTER: rc = MPI_Scatter(in, c, t, out, c, t, root, comm); break;
  }
  static const char *const names[] = {"MPI_Allreduce", "MPI_Reduce", "MPI_Bcast",
                                      "MPI_Allgather", "MPI_Gather", "MPI_Scatter"};
  return adsoac_mpi_(rc, fn, names[k]) || bad;
}

static inline __attribute__((unused)) int adsoac_mpi(AdsoacColl k, AdsoacMpiOp op, const void *in,
                                                     void *out, long n, MPI_Datatype t, int root,
                                                     MPI_Comm comm, AdsoacWhere fn) {
  return adsoac_mpi_at_(0, k, op, in, out, n, t, root, comm, fn);
}

// out[0:n] = block `rank` of the sum over the ranks of in[0 : n*ranks] (the adjoint of an
// allgather): MPI_Reduce_scatter_block, or (--deterministic) the sum in rank order.
static inline __attribute__((unused)) int adsoac_mpi_sum_block_(const void *in, void *out, long n,
                                                                MPI_Datatype t, MPI_Comm comm,
                                                                AdsoacWhere fn) {
#ifdef ADSOAC_DETERMINISTIC
  int me = 0, p = 1;
  if (adsoac_comm_rank(comm, &me, fn) || adsoac_comm_size(comm, &p, fn)) return 1;
  size_t es = adsoac_mpi_size_(t);
  void *sum = malloc((size_t)(n > 0 ? n : 1) * (size_t)p * es);
  if (!sum) return adsoac_fail_(ADSOAC_FN(fn), "out of memory in an MPI derivative");
  int bad = adsoac_mpi(ADSOAC_ALLREDUCE, ADSOAC_MPI_SUM, in, sum, n * p, t, 0, comm, fn);
  if (!bad && n) memcpy(out, (char *)sum + (size_t)me * (size_t)n * es, (size_t)n * es);
  free(sum);
  return bad;
#else
  return adsoac_mpi_(MPI_Reduce_scatter_block(in, out, (int)n, t, MPI_SUM, comm), fn,
                     "MPI_Reduce_scatter_block");
#endif
}

// g = the adjoint of collective k's in (m elements: n, or n per rank for a scatter's) from
// out_bar: the collective's adjoint, before any min/max/product factors; *mine: whether this
// rank's in has one (a broadcast's and a scatter's in are read on the root only).  dev: device
// arrays (adsoac_mpi_at_).
static inline __attribute__((unused)) int adsoac_mpi_adjoint_(int dev, AdsoacColl k, AdsoacMpiOp op,
                                                              const void *out_bar, void *g, long n,
                                                              MPI_Datatype t, int root,
                                                              MPI_Comm comm, int *mine,
                                                              AdsoacWhere fn) {
  int me = 0;
  if (adsoac_comm_rank(comm, &me, fn) || adsoac_mpi_sync_(dev, fn)) return 1; // (out_bar, g written)
  *mine = 1;
  switch (k) {
  case ADSOAC_ALLREDUCE: /* the ranks' adjoints summed, on every rank */
    return adsoac_mpi_at_(dev, k, ADSOAC_MPI_SUM, out_bar, g, n, t, root, comm, fn);
  case ADSOAC_REDUCE: /* the root's, on every rank */
    return adsoac_mpi_at_(dev, ADSOAC_BCAST, op, out_bar, g, n, t, root, comm, fn);
  case ADSOAC_BCAST: /* the ranks' adjoints summed, on the root */
    *mine = me == root;
    return adsoac_mpi_at_(dev, ADSOAC_REDUCE, ADSOAC_MPI_SUM, out_bar, g, n, t, root, comm, fn);
  case ADSOAC_ALLGATHER: /* each rank's block of the sum */
    return adsoac_mpi_sum_block_(out_bar, g, n, t, comm, fn);
  case ADSOAC_GATHER: /* each rank's block of the root's */
    return adsoac_mpi_at_(dev, ADSOAC_SCATTER, op, out_bar, g, n, t, root, comm, fn);
  case ADSOAC_SCATTER: /* the blocks, on the root */
    *mine = me == root;
    return adsoac_mpi_at_(dev, ADSOAC_GATHER, op, out_bar, g, n, t, root, comm, fn);
  }
  return 0;
}

// ---- derivatives, for double (d) and float (f) ----

// fac[0:n]: the factor of element k's tangent or adjoint in a min, max or product over the
// ranks: 1 or 0 (the winning rank's or not), the product of the other ranks' values.
#define ADSOAC_MPI_RULES(T, SFX, MPIT, PAIR_T)                                                   \
  typedef struct {                                                                               \
    T v;                                                                                         \
    int r;                                                                                       \
  } AdsoacMpiPair_##SFX;                                                                         \
  static inline __attribute__((unused)) int adsoac_mpi_factors_##SFX(                           \
      AdsoacMpiOp op, const T *in, T *fac, long n, MPI_Comm comm, AdsoacWhere fn) {             \
    int me = 0;                                                                                  \
    if (adsoac_comm_rank(comm, &me, fn)) return 1;                                               \
    if (op == ADSOAC_MPI_MIN || op == ADSOAC_MPI_MAX) { /* the lowest rank of a tie wins */      \
      AdsoacMpiPair_##SFX *p = (AdsoacMpiPair_##SFX *)malloc(2 * (size_t)(n > 0 ? n : 1) *          \
                                                             sizeof *p);                         \
      if (!p) return adsoac_fail_(ADSOAC_FN(fn), "out of memory in an MPI derivative");                     \
      for (long k = 0; k < n; k++) p[k].v = in[k], p[k].r = me;                                  \
      int bad = adsoac_mpi_(MPI_Allreduce(p, p + n, (int)n, PAIR_T,                             \
                                          op == ADSOAC_MPI_MIN ? MPI_MINLOC : MPI_MAXLOC, comm), \
                            fn, "MPI_Allreduce");                                                \
      for (long k = 0; !bad && k < n; k++) fac[k] = p[n + k].r == me ? (T)1 : (T)0;              \
      free(p);                                                                                   \
      return bad;                                                                                \
    }                                                                                            \
    /* product: the product of the nonzero values and the number of zeros, over the ranks */     \
    T *nz = (T *)malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *nz);                                   \
    int *z = (int *)malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *z);                                 \
    if (!nz || !z) {                                                                             \
      free(nz), free(z);                                                                         \
      return adsoac_fail_(ADSOAC_FN(fn), "out of memory in an MPI derivative");                             \
    }                                                                                            \
    for (long k = 0; k < n; k++) nz[k] = in[k] != 0 ? in[k] : (T)1, z[k] = in[k] == 0;           \
    int bad = adsoac_mpi(ADSOAC_ALLREDUCE, ADSOAC_MPI_PROD, nz, nz + n, n, MPIT, 0, comm, fn) ||  \
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
  /* in_bar += the adjoint of in, from out_bar (n per rank where the collective's out or in    \
     holds n per rank) */                                                                        \
  static inline __attribute__((unused)) int adsoac_mpi_vjp_##SFX(                               \
      AdsoacColl k, AdsoacMpiOp op, const T *in, T *in_bar, const T *out_bar, long n, int root, \
      MPI_Comm comm, AdsoacWhere fn) {                                                           \
    int me = 0, p = 1;                                                                           \
    if (adsoac_mpi_count_(n, fn) || adsoac_comm_rank(comm, &me, fn) ||                           \
        adsoac_comm_size(comm, &p, fn))                                                          \
      return 1;                                                                                  \
    long m = k == ADSOAC_SCATTER ? n * p : n; /* the elements of in */                           \
    T *g = (T *)malloc(2 * (size_t)(m > 0 ? m : 1) * sizeof *g), *fac = g + m;                      \
    if (!g) return adsoac_fail_(ADSOAC_FN(fn), "out of memory in an MPI derivative");                       \
    int mine = 1;                                                                                \
    int bad = adsoac_mpi_adjoint_(0, k, op, out_bar, g, n, MPIT, root, comm, &mine, fn);         \
    int factors = (k == ADSOAC_ALLREDUCE || k == ADSOAC_REDUCE) && op != ADSOAC_MPI_SUM;        \
    bad = bad || (factors && adsoac_mpi_factors_##SFX(op, in, fac, n, comm, fn));               \
    for (long j = 0; !bad && mine && j < m; j++) in_bar[j] += factors ? g[j] * fac[j] : g[j];  \
    free(g);                                                                                     \
    return bad;                                                                                  \
  }                                                                                              \
                                                                                                 \
  /* out_dot = the tangent of out, from in_dot */                                                \
  static inline __attribute__((unused)) int adsoac_mpi_jvp_##SFX(                               \
      AdsoacColl k, AdsoacMpiOp op, const T *in, const T *in_dot, T *out_dot, long n, int root, \
      MPI_Comm comm, AdsoacWhere fn) {                                                           \
    if ((k != ADSOAC_ALLREDUCE && k != ADSOAC_REDUCE) || op == ADSOAC_MPI_SUM) /* linear */      \
      return adsoac_mpi(k, op, in_dot, out_dot, n, MPIT, root, comm, fn);                        \
    if (adsoac_mpi_count_(n, fn)) return 1;                                                      \
    T *c = (T *)malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *c), *fac = c + n;                      \
    if (!c) return adsoac_fail_(ADSOAC_FN(fn), "out of memory in an MPI derivative");                       \
    int bad = adsoac_mpi_factors_##SFX(op, in, fac, n, comm, fn);                                \
    for (long j = 0; !bad && j < n; j++) c[j] = in_dot[j] * fac[j];                              \
    bad = bad || adsoac_mpi(k, ADSOAC_MPI_SUM, c, out_dot, n, MPIT, root, comm, fn);             \
    free(c);                                                                                     \
    return bad;                                                                                  \
  }

ADSOAC_MPI_RULES(double, d, MPI_DOUBLE, MPI_DOUBLE_INT)
ADSOAC_MPI_RULES(float, f, MPI_FLOAT, MPI_FLOAT_INT)
#undef ADSOAC_MPI_RULES

// The number of ranks of comm (the length of an allgather's result: count times it).
static inline __attribute__((unused)) long adsoac_mpi_ranks_(MPI_Comm comm) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  return p;
}

#ifdef __CUDACC__
// ---- the CUDA target: device arrays given to MPI, or staged through host copies ----

#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> // (Open MPI: MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support)
#endif
#endif

// Whether the MPI library takes device pointers: -DADSOAC_MPI_STAGE says no (always host
// copies), -DADSOAC_CUDA_AWARE_MPI says yes; otherwise Open MPI's run-time query where the
// library was built with CUDA support, and no for any other.
static inline __attribute__((unused)) int adsoac_mpi_cuda_aware_(void) {
#if defined(ADSOAC_MPI_STAGE)
  return 0;
#elif defined(ADSOAC_CUDA_AWARE_MPI)
  return 1;
#elif defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support();
#else
  return 0;
#endif
}

typedef enum { ADSOAC_MPI_CALL, ADSOAC_MPI_VJP, ADSOAC_MPI_JVP } AdsoacMpiMode;

// Whether collective k (its operator op, elements of t) in the original (CALL), its adjoint
// (VJP) or its tangent (JVP) runs on the device arrays themselves: with a CUDA-aware MPI,
// wherever its rule only calls MPI and copies within device memory.  The rules that compute
// on the host stage: the factors of min, max and product, and --deterministic's folds of
// floating-point values in rank order.
static inline __attribute__((unused)) int adsoac_mpi_on_device_(AdsoacColl k, AdsoacMpiOp op,
                                                                AdsoacMpiMode m, MPI_Datatype t) {
  if (!adsoac_mpi_cuda_aware_()) return 0;
  int red = k == ADSOAC_ALLREDUCE || k == ADSOAC_REDUCE;
  if (m != ADSOAC_MPI_CALL && red && op != ADSOAC_MPI_SUM) return 0;
#ifdef ADSOAC_DETERMINISTIC
  if ((t == MPI_DOUBLE || t == MPI_FLOAT) &&
      (m == ADSOAC_MPI_VJP ? k == ADSOAC_ALLREDUCE || k == ADSOAC_BCAST || k == ADSOAC_ALLGATHER : red))
    return 0;
#endif
  (void)t;
  return 1;
}

// out = the collective of in (CALL; JVP, whose tangents a linear collective maps alike), on
// device arrays (where adsoac_mpi_on_device_).
static inline __attribute__((unused)) int adsoac_mpi_dev(AdsoacColl k, AdsoacMpiOp op, const void *in,
                                                         void *out, long n, MPI_Datatype t, int root,
                                                         MPI_Comm comm, AdsoacWhere fn) {
  return adsoac_mpi_at_(1, k, op, in, out, n, t, root, comm, fn);
}

template <typename T> static __global__ void adsoac_mpi_add_kernel(T *a, const T *g, long long n) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
       k += (long long)gridDim.x * blockDim.x)
    a[k] += g[k];
}

// in_bar += the adjoint of a collective whose adjoint is linear (no min, max or product
// factors), on device arrays (where adsoac_mpi_on_device_).
template <typename T>
static inline __attribute__((unused)) int adsoac_mpi_vjp_dev(AdsoacColl k, AdsoacMpiOp op,
                                                             T *in_bar, const T *out_bar, long n,
                                                             MPI_Datatype t, int root,
                                                             MPI_Comm comm, AdsoacWhere fn) {
  int p = 1, mine = 1;
  if (adsoac_mpi_count_(n, fn) || adsoac_comm_size(comm, &p, fn)) return 1;
  long m = k == ADSOAC_SCATTER ? n * p : n; // the elements of in
  T *g = NULL;
  if (adsoac_dev_alloc((void **)&g, sizeof(T) * (size_t)(m > 0 ? m : 1), fn)) return 1;
  int bad = adsoac_mpi_adjoint_(1, k, op, out_bar, g, n, t, root, comm, &mine, fn);
  if (!bad && mine && m > 0) {
    adsoac_mpi_add_kernel<T><<<adsoac_grid(m), ADSOAC_BLOCK, 0, fn->s>>>(in_bar, g, m);
    bad = adsoac_launched(fn);
  }
  adsoac_dev_free(g, fn);
  return bad;
}

// Host copies of device arrays around a collective (MPI without CUDA support): h[k] holds
// `bytes` bytes, copied from dev when `in`; adsoac_unstage_ copies one back.
typedef struct {
  void *h[3];
} AdsoacStage;

static inline __attribute__((unused)) int adsoac_stage_(AdsoacStage *s, int k, const void *dev,
                                                        size_t bytes, bool in, AdsoacWhere fn) {
  s->h[k] = malloc(bytes ? bytes : 1);
  if (!s->h[k]) return adsoac_fail_(ADSOAC_FN(fn), "out of memory staging an MPI buffer");
  return in && bytes ? adsoac_load(s->h[k], dev, bytes, fn) : 0;
}

static inline __attribute__((unused)) int adsoac_unstage_(void *dev, const void *host, size_t bytes,
                                                          AdsoacWhere fn) {
  return bytes ? adsoac_store(dev, host, bytes, fn) : 0;
}

static inline __attribute__((unused)) void adsoac_stage_free_(AdsoacStage *s) {
  for (int k = 0; k < 3; k++) free(s->h[k]), s->h[k] = NULL;
}
#endif
