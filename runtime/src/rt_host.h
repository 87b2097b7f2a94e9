// runtime/src/rt_host.h: what the C11/OpenMP target's generated code needs.
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

// A scan on the C target runs in one contiguous chunk of its loop per thread: one pass where
// one thread runs it (or the loop is short), else each chunk's total in parallel (but the
// last's), the chunks' prefixes in order, then the chunks again in parallel.
#define ADSOAC_CHUNKS 64 // at most this many chunks
// --deterministic: a reduction runs in this many blocks of its iterations (their bounds set
// by the trip count alone), the blocks' partials combined in order
#ifndef ADSOAC_DET_BLOCKS
#define ADSOAC_DET_BLOCKS 256
#endif
#ifndef ADSOAC_SCAN_GRAIN
#define ADSOAC_SCAN_GRAIN 4096 // at least this many iterations per chunk
#endif

// The iterations per chunk of a loop whose updates meet only within w iterations of each
// other (w >= 1), run in two phases of every other chunk: at least w, about a quarter of
// each thread's share (two chunks per thread in each phase).
static inline __attribute__((unused)) unsigned long long adsoac_chunk_width(unsigned long long trip,
                                                                           long w) {
#if defined(ADSOAC_DETERMINISTIC)
  unsigned long long t = 16; // (--deterministic: the chunks do not follow the threads)
#elif defined(_OPENMP)
  unsigned long long t = omp_in_parallel() ? 1 : (unsigned long long)omp_get_max_threads();
#else
  unsigned long long t = 1;
#endif
  unsigned long long c = trip / (4 * t) + 1;
  return w < 1 ? trip : c < (unsigned long long)w ? (unsigned long long)w : c;
}

// A thread's window of an adjoint array that a reverse loop updates at indices nothing bounds
// (read from an array, a counter): a copy of elements [lo, lo + n) of it, zero where no update
// reached, grown (at least doubled) as updates reach further, up to ADSOAC_WINDOW_MAX
// elements.  full: it cannot grow (the caller updates the array atomically).  After the
// loop (and a barrier) the team adds the windows to the array, each thread a slice of the
// indices they span, plainly, only their nonzero elements: no element is touched that no
// update reached.
#ifndef ADSOAC_WINDOW_MAX
#define ADSOAC_WINDOW_MAX (1LL << 12)
#endif
typedef struct {
  void *v;
  long long lo, n;
  int full;
} AdsoacWin;
typedef struct {
  int nt; // one window per thread of the team
  AdsoacWin w[];
} AdsoacWins;

static __attribute__((unused)) AdsoacWins *adsoac_wins_new(void) { // (NULL: atomic updates)
#ifdef _OPENMP
  int nt = omp_in_parallel() ? 1 : omp_get_max_threads();
#else
  int nt = 1;
#endif
  AdsoacWins *ws = (AdsoacWins *)calloc(1, sizeof(AdsoacWins) + (size_t)nt * sizeof(AdsoacWin));
  if (ws) ws->nt = nt;
  return ws;
}
static inline __attribute__((unused)) AdsoacWin *adsoac_win_mine(AdsoacWins *ws) {
#ifdef _OPENMP
  int t = omp_get_thread_num();
#else
  int t = 0;
#endif
  return ws && t < ws->nt ? &ws->w[t] : NULL;
}
static __attribute__((unused)) int adsoac_win_grow_(AdsoacWin *w, long long j, size_t es) {
  if (!w || w->full) return 0;
  long long lo = w->lo, hi = w->lo + w->n, more = w->n > 32 ? w->n : 32;
  if (!w->n) lo = j - more / 2, hi = j + more / 2;
  else if (j < lo) lo = (j < lo - more ? j : lo - more);
  else hi = (j >= hi + more ? j + 1 : hi + more);
  if (hi - lo > ADSOAC_WINDOW_MAX) {
    w->full = 1;
    return 0;
  }
  void *v = calloc((size_t)(hi - lo), es);
  if (!v) {
    w->full = 1;
    return 0;
  }
  if (w->n) memcpy((char *)v + (size_t)(w->lo - lo) * es, w->v, (size_t)w->n * es);
  free(w->v);
  w->v = v, w->lo = lo, w->n = hi - lo;
  return 1;
}
// adsoac_win_add_d/_f: v[j] += x in the window, or 0: j beyond what it can hold
#define ADSOAC_WIN_ADD(T, SUFFIX)                                                            \
  static inline __attribute__((unused)) int adsoac_win_add_##SUFFIX(AdsoacWin *w, long long j, \
                                                                    T x) {                   \
    if ((!w || j < w->lo || j >= w->lo + w->n) && !adsoac_win_grow_(w, j, sizeof(T)))         \
      return 0;                                                                              \
    ((T *)w->v)[j - w->lo] += x;                                                             \
    return 1;                                                                                \
  }
ADSOAC_WIN_ADD(double, d)
ADSOAC_WIN_ADD(float, f)
// This thread's slice [*s, *e) of the indices the windows span.
static __attribute__((unused)) int adsoac_wins_slice_(const AdsoacWins *ws, long long *s, long long *e) {
  long long lo = 0, hi = 0;
  int any = 0;
  for (int k = 0; ws && k < ws->nt; k++) {
    const AdsoacWin *w = &ws->w[k];
    if (!w->n) continue;
    if (!any || w->lo < lo) lo = w->lo;
    if (!any || w->lo + w->n > hi) hi = w->lo + w->n;
    any = 1;
  }
#ifdef _OPENMP
  long long t = omp_get_thread_num(), nt = omp_get_num_threads();
#else
  long long t = 0, nt = 1;
#endif
  *s = lo + (hi - lo) / nt * t + ((hi - lo) % nt * t) / nt;
  *e = lo + (hi - lo) / nt * (t + 1) + ((hi - lo) % nt * (t + 1)) / nt;
  return any;
}
// adsoac_wins_merge_d/_f: the windows added to the array whose element 0 is at a, its
// elements stride bytes apart (a field of an array of structs: the struct's size); every
// thread of the team calls it after a barrier, and adds its slice.
#define ADSOAC_WINS_MERGE(T, SUFFIX)                                                         \
  static __attribute__((unused)) void adsoac_wins_merge_##SUFFIX(AdsoacWins *ws, void *a,     \
                                                                 size_t stride) {            \
    long long s, e;                                                                          \
    if (!adsoac_wins_slice_(ws, &s, &e)) return;                                             \
    for (int k = 0; k < ws->nt; k++) {                                                       \
      const AdsoacWin *w = &ws->w[k];                                                        \
      long long b0 = w->lo > s ? w->lo : s, b1 = w->lo + w->n < e ? w->lo + w->n : e;        \
      for (long long j = b0; j < b1; j++) {                                                  \
        T x = ((const T *)w->v)[j - w->lo];                                                  \
        if (x != (T)0) *(T *)((char *)a + j * (long long)stride) += x;                       \
      }                                                                                      \
    }                                                                                        \
  }
ADSOAC_WINS_MERGE(double, d)
ADSOAC_WINS_MERGE(float, f)
static __attribute__((unused)) void adsoac_wins_free(AdsoacWins *ws) {
  for (int k = 0; ws && k < ws->nt; k++) free(ws->w[k].v);
  free(ws);
}

static inline __attribute__((unused)) int adsoac_scan_chunks(long long n) {
#if defined(ADSOAC_DETERMINISTIC)
  long long t = ADSOAC_CHUNKS; // (--deterministic: the chunks do not follow the threads)
#elif defined(_OPENMP)
  long long t = omp_in_parallel() ? 1 : omp_get_max_threads();
#else
  long long t = 1;
#endif
  if (t > ADSOAC_CHUNKS) t = ADSOAC_CHUNKS;
  if (t > n / ADSOAC_SCAN_GRAIN) t = n / ADSOAC_SCAN_GRAIN;
  return t > 1 ? (int)t : 1;
}
// A parallel loop whose body runs no loop of its own opens a team only from this many
// iterations (its if clause): a short loop in a time loop runs on the calling thread.
#ifndef ADSOAC_PAR_MIN
#define ADSOAC_PAR_MIN 1024
#endif

// Does such a loop of trip iterations open a team?  Not where one thread would run it: a team
// of one costs a few hundred nanoseconds (libgomp), more than a short loop's iterations.
// Does a team (opened where team holds) run on one thread?  Then the updates it would make
// atomically (several threads may reach one element) are plain: an atomic add costs about
// 12 ns, a plain one 2 (measured, uncontended).  Inside another team: no (atomic).
static inline __attribute__((unused)) int adsoac_one_thread(int team) {
#ifdef _OPENMP
  return !team || (!omp_in_parallel() && omp_get_max_threads() == 1);
#else
  (void)team;
  return 1;
#endif
}

// adsoac_add_d/_f: *p += v, atomically unless solo
#define ADSOAC_ADD(T, SUFFIX)                                                                \
  static inline __attribute__((unused)) void adsoac_add_##SUFFIX(int solo, T *p, T v) {      \
    if (solo) {                                                                              \
      *p += v;                                                                               \
      return;                                                                                \
    }                                                                                        \
    _Pragma("omp atomic") *p += v;                                                           \
  }
ADSOAC_ADD(double, d)
ADSOAC_ADD(float, f)

static inline __attribute__((unused)) int adsoac_team(unsigned long long trip) {
#ifdef _OPENMP
  return trip >= ADSOAC_PAR_MIN && omp_get_max_threads() > 1;
#else
  (void)trip;
  return 0;
#endif
}
#ifndef ADSOAC_PRIVATE_BINS
#define ADSOAC_PRIVATE_BINS 65536 // histograms this small get a copy per thread, merged after
#endif

#define ADSOAC_CHECK(call) do { if (call) goto adsoac_fail; } while (0)

// An iteration of a parallel loop that could not allocate its own arrays sets this and skips
// the rest of its body; the function then fails (adsoac_priv_check).
static int adsoac_priv_oom_ __attribute__((unused));

static inline __attribute__((unused)) void adsoac_priv_oom(void) {
#pragma omp atomic write
  adsoac_priv_oom_ = 1;
}

static inline __attribute__((unused)) int adsoac_priv_check(const char *fn) {
  int oom;
#pragma omp atomic read
  oom = adsoac_priv_oom_;
  if (!oom) return 0;
#pragma omp atomic write
  adsoac_priv_oom_ = 0;
  return adsoac_fail_(fn, "out of memory for the arrays of a parallel loop's iterations");
}

// A thread's scratch for the arrays a parallel loop's iterations allocate (a private copy
// of a work array, its adjoint, saved states of a loop in the body): one block that every
// iteration reuses, instead of a calloc and a free per array per iteration.  The team's
// threads each declare one (zero) in the parallel region and release it at its end.  An
// array is zeroed as calloc would; arrays may be freed in any order (a freed one leaves the
// stack with the last live array above it).  A request that does not fit is calloc'd, and
// the block grows to the largest demand seen the next time it is empty.
typedef struct {
  size_t prev, bytes, state, pad_; // state: 0 live, 1 freed, 2 calloc'd on its own
} AdsoacStkHdr;

typedef struct {
  char *base;
  size_t cap, top, last, need, peak;
} AdsoacStk;

static inline __attribute__((unused)) void *adsoac_stk_calloc(AdsoacStk *s, size_t n, size_t es) {
  const size_t h = sizeof(AdsoacStkHdr);
  if (es && n > ((size_t)-1 / 2 - h) / es) return NULL;
  size_t bytes = (n * es + 15) & ~(size_t)15;
  s->need += h + bytes;
  if (s->need > s->peak) s->peak = s->need;
  if (!s->top && s->peak > s->cap) { // (empty: nothing points into it)
    free(s->base);
    s->cap = s->peak + s->peak / 4;
    if (!(s->base = (char *)malloc(s->cap))) s->cap = 0;
  }
  AdsoacStkHdr *hd;
  if (s->cap - s->top >= h + bytes) {
    hd = (AdsoacStkHdr *)(s->base + s->top);
    hd->prev = s->last;
    hd->state = 0;
    s->last = s->top;
    s->top += h + bytes;
    memset(hd + 1, 0, bytes);
  } else {
    if (!(hd = (AdsoacStkHdr *)calloc(1, h + bytes))) {
      s->need -= h + bytes;
      return NULL;
    }
    hd->state = 2;
  }
  hd->bytes = bytes;
  return hd + 1;
}

static inline __attribute__((unused)) void adsoac_stk_free(AdsoacStk *s, void *p) {
  if (!p) return;
  AdsoacStkHdr *hd = (AdsoacStkHdr *)p - 1;
  s->need -= sizeof *hd + hd->bytes;
  if (hd->state == 2) {
    free(hd);
    return;
  }
  hd->state = 1;
  while (s->top) { // pop the freed arrays on top
    AdsoacStkHdr *t = (AdsoacStkHdr *)(s->base + s->last);
    if (t->state != 1) break;
    s->top = s->last;
    s->last = t->prev;
  }
}

static inline __attribute__((unused)) void adsoac_stk_release(AdsoacStk *s) {
  free(s->base);
}

// Temporaries (saved elements, scan prefixes, adjoints) are zeroed host memory.  Large ones
// are recycled: a freed block of at least ADSOAC_POOL_MIN bytes waits in a small cache of this
// file's, and the next allocation of a similar size takes it back, already mapped (no page
// faults) and zeroed in parallel.  At most ADSOAC_POOL blocks and ADSOAC_POOL_BYTES bytes wait.
#ifndef ADSOAC_POOL
#define ADSOAC_POOL 16
#endif
#ifndef ADSOAC_POOL_BYTES
#define ADSOAC_POOL_BYTES ((size_t)2 << 30)
#endif
#define ADSOAC_POOL_MIN ((size_t)1 << 16)
#define ADSOAC_HEADER 64 // before each block: its size (keeps the block 64-byte aligned)

static struct {
  void *raw[ADSOAC_POOL];
  size_t bytes[ADSOAC_POOL], total;
} adsoac_pool_;

static inline void adsoac_zero_(void *p, size_t n) {
  if (n < ((size_t)1 << 20)) { // threads pay off from about a megabyte
    memset(p, 0, n);
    return;
  }
#pragma omp parallel for
  for (int c = 0; c < 64; c++) {
    size_t a = n / 64 * (size_t)c, b = c == 63 ? n : n / 64 * (size_t)(c + 1);
    memset((char *)p + a, 0, b - a);
  }
}

// Small blocks (at most ADSOAC_SMALL_MAX = 4 KiB) come from a scratch stack of the calling
// thread's (AdsoacStk, at most ADSOAC_SMALL_STACK bytes, 64 MiB; what does not fit is
// calloc'd): a store-all loop allocates its iterations' arrays at every step and frees them
// in the reverse order (calloc and free were most of the LSTM's reverse sweep).  A generated
// function allocates and frees its temporaries on the thread that calls it.
#define ADSOAC_SMALL_MAX ((size_t)4096)
#ifndef ADSOAC_SMALL_STACK
#define ADSOAC_SMALL_STACK ((size_t)64 << 20)
#endif

static ADSOAC_TLS AdsoacStk adsoac_small_;

// Memory of bytes bytes, zeroed with zero; 0 on success (*p NULL and the error recorded on
// failure).
static inline __attribute__((unused)) int adsoac_host_alloc_(void **p, size_t bytes, int zero,
                                                             const char *fn) {
  size_t need = bytes ? bytes : 1;
  char *raw = NULL;
  if (need <= ADSOAC_SMALL_MAX) { // (the header says so: its second word)
    AdsoacStk *st = &adsoac_small_;
    if (st->peak > ADSOAC_SMALL_STACK) st->peak = ADSOAC_SMALL_STACK; // (its growth bounded)
    if (!(raw = (char *)adsoac_stk_calloc(st, need + ADSOAC_HEADER, 1))) {
      *p = NULL;
      return adsoac_fail_(fn, "out of memory allocating %zu bytes", bytes);
    }
    ((size_t *)raw)[0] = need;
    ((size_t *)raw)[1] = 1;
  } else if (need >= ADSOAC_POOL_MIN) {
#pragma omp critical(adsoac_pool)
    {
      int best = -1;
      for (int i = 0; i < ADSOAC_POOL; i++)
        if (adsoac_pool_.raw[i] && adsoac_pool_.bytes[i] >= need && adsoac_pool_.bytes[i] / 2 <= need &&
            (best < 0 || adsoac_pool_.bytes[i] < adsoac_pool_.bytes[best]))
          best = i;
      if (best >= 0) {
        raw = (char *)adsoac_pool_.raw[best];
        adsoac_pool_.raw[best] = NULL;
        adsoac_pool_.total -= adsoac_pool_.bytes[best];
      }
    }
  }
  if (raw) { // (a small block comes zeroed from the stack)
    if (zero && !((size_t *)raw)[1]) adsoac_zero_(raw + ADSOAC_HEADER, *(size_t *)raw);
  } else {
    raw = need > ((size_t)-1 >> 1) - ADSOAC_HEADER ? NULL
          : zero ? (char *)calloc(need + ADSOAC_HEADER, 1) : (char *)malloc(need + ADSOAC_HEADER);
    if (!raw) {
      *p = NULL;
      return adsoac_fail_(fn, "out of memory allocating %zu bytes", bytes);
    }
    ((size_t *)raw)[0] = need;
    ((size_t *)raw)[1] = 0;
  }
  *p = raw + ADSOAC_HEADER;
#ifdef ADSOAC_POISON_RAW // (the tests: an unzeroed block read before it is written gives NaN)
  if (!zero) memset(*p, 0xff, need);
#endif
  return 0;
}

// Zeroed memory (the adjoints a reverse sweep accumulates into start at 0).
static inline __attribute__((unused)) int adsoac_host_alloc(void **p, size_t bytes, const char *fn) {
  return adsoac_host_alloc_(p, bytes, 1, fn);
}

// Memory that is not zeroed: the first loop over it writes every element (transform/zero.c).
static inline __attribute__((unused)) int adsoac_host_alloc_raw(void **p, size_t bytes, const char *fn) {
  return adsoac_host_alloc_(p, bytes, 0, fn);
}

// Releases memory of adsoac_host_alloc (NULL: nothing): a small block to its thread's stack,
// a large one into the cache if there is room.
static inline __attribute__((unused)) void adsoac_host_free(void *p) {
  if (!p) return;
  char *raw = (char *)p - ADSOAC_HEADER;
  size_t bytes = *(size_t *)raw;
  int kept = 0;
  if (((size_t *)raw)[1]) {
    adsoac_stk_free(&adsoac_small_, raw);
    return;
  }
  if (bytes >= ADSOAC_POOL_MIN) {
#pragma omp critical(adsoac_pool)
    for (int i = 0; i < ADSOAC_POOL && !kept; i++)
      if (!adsoac_pool_.raw[i] && adsoac_pool_.total + bytes <= ADSOAC_POOL_BYTES) {
        adsoac_pool_.raw[i] = raw;
        adsoac_pool_.bytes[i] = bytes;
        adsoac_pool_.total += bytes;
        kept = 1;
      }
  }
  if (!kept) free(raw);
}

// perm[0:n] = 0 .. n-1 ordered by key[i] (each in [0, nkeys]), stably: a counting sort
// (the updates of a histogram grouped by bin, for the general derivative rule).
static inline __attribute__((unused)) int adsoac_sort_by_key(const long *key, long *perm, long n,
                                                             long nkeys, const char *fn) {
  if (n <= 0) return 0;
  long *start = calloc((size_t)nkeys + 2, sizeof *start);
  if (!start) return adsoac_fail_(fn, "out of memory sorting %ld elements", n);
  for (long i = 0; i < n; i++) start[key[i] + 1]++;
  for (long k = 0; k <= nkeys; k++) start[k + 1] += start[k];
  for (long i = 0; i < n; i++) perm[start[key[i]]++] = i;
  free(start);
  return 0;
}
