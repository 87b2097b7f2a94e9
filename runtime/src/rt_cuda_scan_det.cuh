// runtime/src/rt_cuda_scan_det.cuh: --deterministic's device-wide scans, in place of
// rt_cuda_scan.cuh (the same adsoac_scan), embedded only into the CUDA files whose functions
// scan.

// dst[k] = init OP src[0] OP ... OP src[k-1] (reverse: src[k+1] OP ... OP src[n-1] OP init)
// in an order of combination that n alone sets: CUB's look-back combines the tiles' partials
// in an order the timing of the blocks decides, which changes a floating-point result from
// run to run.  Element j of the sequence is src[j] (reverse: src[n-1-j], combined from the
// right).  Tiles of ADSOAC_SCAN_TILE elements, a block each, ADSOAC_SCAN_ITEMS consecutive
// ones per thread folded in order, the threads' folds scanned across the block by a
// Hillis-Steele tree (the same steps every time, operands kept in order: the operator need not
// commute); the tiles' folds scanned by one block the same way; then each tile again from its
// prefix.  *host_total (the host waits for it) and the device cell *dev_total receive the whole scan (NULL: not wanted); dst NULL: only the total is wanted.
#define ADSOAC_SCAN_ITEMS 8
#define ADSOAC_SCAN_TILE (ADSOAC_BLOCK * ADSOAC_SCAN_ITEMS)

// a before b, in the sequence's order
template <typename Op> struct AdsoacComb {
  Op op;
  bool reverse;
  template <typename T> __host__ __device__ T operator()(T a, T b) const { return reverse ? op(b, a) : op(a, b); }
};

template <typename T> struct AdsoacSrc { // element j of the sequence
  const T *src;
  long long n;
  bool reverse;
  __device__ long long at(long long j) const { return reverse ? n - 1 - j : j; }
  __device__ T operator()(long long j) const { return src[at(j)]; }
};

template <typename T> struct AdsoacAt {
  const T *a;
  __device__ T operator()(long long j) const { return a[j]; }
};

// The block's threads each fold a run of `per` consecutive elements of [first, end) in order,
// and the folds are scanned across the block.  Returns whether this thread has a run; *p its
// exclusive prefix: base (with has_base), then the runs before it (thread 0 without a base:
// base itself, meaningless).  *total: the whole range's fold after base.
template <typename T, typename Get, typename Comb>
static __device__ bool adsoac_block_prefix_(Get get, Comb comb, long long first, long long end,
                                            long long per, bool has_base, T base, T *p, T *total) {
  __shared__ __align__(16) unsigned char raw[2 * ADSOAC_BLOCK * sizeof(T)];
  T *buf = reinterpret_cast<T *>(raw);
  long long runs = (end - first + per - 1) / per;
  int t = (int)threadIdx.x, valid = runs < ADSOAC_BLOCK ? (int)runs : ADSOAC_BLOCK, cur = 0;
  long long lo = first + (long long)t * per, hi = lo + per < end ? lo + per : end;
  T v = get(t < valid ? lo : first);
  for (long long j = lo + 1; j < hi; j++) v = comb(v, get(j));
  __syncthreads(); // (an earlier call's reads of buf are done)
  buf[t] = v;
  __syncthreads();
  for (int s = 1; s < ADSOAC_BLOCK; s <<= 1) {
    T *from = buf + cur * ADSOAC_BLOCK, *to = buf + (1 - cur) * ADSOAC_BLOCK;
    if (t < valid) to[t] = t >= s ? comb(from[t - s], from[t]) : from[t];
    cur = 1 - cur;
    __syncthreads();
  }
  const T *incl = buf + cur * ADSOAC_BLOCK;
  *total = has_base ? comb(base, incl[valid - 1]) : incl[valid - 1];
  if (t > 0 && t < valid) *p = has_base ? comb(base, incl[t - 1]) : incl[t - 1];
  else *p = base;
  return t < valid;
}

// Without pre: tile b's fold into agg[b].  With pre: tile b scanned from pre[b] into dst.
template <typename T, typename Op>
static __global__ void __launch_bounds__(ADSOAC_BLOCK)
adsoac_scan_tile_kernel(AdsoacSrc<T> q, AdsoacComb<Op> comb, T *agg, const T *pre, T *dst) {
  long long first = (long long)blockIdx.x * ADSOAC_SCAN_TILE;
  long long end = q.n - first > ADSOAC_SCAN_TILE ? first + ADSOAC_SCAN_TILE : q.n;
  T base = pre ? pre[blockIdx.x] : q(first), p, total;
  bool mine = adsoac_block_prefix_(q, comb, first, end, ADSOAC_SCAN_ITEMS, pre != NULL, base, &p, &total);
  if (!pre) {
    if (threadIdx.x == 0) agg[blockIdx.x] = total;
    return;
  }
  long long lo = first + (long long)threadIdx.x * ADSOAC_SCAN_ITEMS;
  long long hi = lo + ADSOAC_SCAN_ITEMS < end ? lo + ADSOAC_SCAN_ITEMS : end;
  for (long long j = lo; mine && j < hi; j++) {
    T x = q(j);
    dst[q.at(j)] = p;
    p = comb(p, x);
  }
}

// The g tiles' folds agg[] scanned from init into pre[] (one block); *tot the whole scan.
template <typename T, typename Op>
static __global__ void __launch_bounds__(ADSOAC_BLOCK)
adsoac_scan_tops_kernel(const T *agg, long long g, T init, AdsoacComb<Op> comb, T *pre, T *tot) {
  long long per = (g + ADSOAC_BLOCK - 1) / ADSOAC_BLOCK;
  AdsoacAt<T> get = {agg};
  T p, total;
  if (!adsoac_block_prefix_(get, comb, 0, g, per, true, init, &p, &total)) return;
  long long lo = (long long)threadIdx.x * per, hi = lo + per < g ? lo + per : g;
  for (long long j = lo; j < hi; j++) {
    pre[j] = p;
    p = comb(p, agg[j]);
  }
  if (hi == g) *tot = p;
}

template <typename T, typename Op>
static inline __attribute__((unused)) int adsoac_scan(const T *src, T *dst, long long n, T init,
                                                      T *host_total, T *dev_total, bool reverse,
                                                      Op op, AdsoacCx *cx) {
  if (host_total) *host_total = init;
  if (n <= 0) return dev_total ? adsoac_put(dev_total, init, cx) : 0;
  long long g = (n + ADSOAC_SCAN_TILE - 1) / ADSOAC_SCAN_TILE;
  if (g > 2147483647LL) return adsoac_fail_(cx->fn, "scan of %lld elements: more tiles than blocks", n);
  T *agg = NULL; // agg[g], pre[g], the total
  if (adsoac_dev_alloc((void **)&agg, sizeof(T) * (size_t)(2 * g + 1), cx)) return 1;
  AdsoacSrc<T> q = {src, n, reverse};
  AdsoacComb<Op> comb = {op, reverse};
  adsoac_scan_tile_kernel<T, Op><<<(unsigned)g, ADSOAC_BLOCK, 0, cx->s>>>(q, comb, agg, (const T *)NULL, dst);
  int bad = adsoac_launched(cx);
  if (!bad) {
    adsoac_scan_tops_kernel<T, Op><<<1, ADSOAC_BLOCK, 0, cx->s>>>(agg, g, init, comb, agg + g, agg + 2 * g);
    bad = adsoac_launched(cx);
  }
  if (!bad && dst) {
    adsoac_scan_tile_kernel<T, Op><<<(unsigned)g, ADSOAC_BLOCK, 0, cx->s>>>(q, comb, (T *)NULL, agg + g, dst);
    bad = adsoac_launched(cx);
  }
  if (!bad && dev_total) bad = adsoac_dev_copy(dev_total, agg + 2 * g, sizeof(T), cx);
  if (!bad && host_total) bad = adsoac_load(host_total, agg + 2 * g, sizeof(T), cx);
  adsoac_dev_free(agg, cx);
  return bad;
}
