// tests/cuda_emu/test_cuda_emu.cpp: the CUDA runtime's block-level code run on the CPU
// (cuda_emu.h; this machine has no GPU): --deterministic's scans (rt_cuda_scan_det.cuh)
// against sequential scans, forward and reverse, an operator that does not commute, the
// total alone; and the reductions' block trees (rt_cuda.cuh) as the generated kernels use
// them; the workspace's stack of temporaries (rt_cuda.cuh adsoac_dev_alloc).  Built and run
// by run-cuda-emu.sh.
#include "cuda_emu.h"
#include "runtime.inc" // (the runtime, its launches rewritten)

#include <cinttypes>
#include <cmath>

static int failures;
#define CHECK(c, ...)                                                                          \
  do {                                                                                         \
    if (!(c)) {                                                                                \
      failures++;                                                                              \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                              \
      printf(__VA_ARGS__);                                                                     \
      printf("\n");                                                                            \
    }                                                                                          \
  } while (0)

// x -> a x + b, in unsigned 64-bit arithmetic (exact, associative, not commutative);
// op(f, g): f first, then g.
struct Aff {
  uint64_t a, b;
};
struct AffOp {
  __host__ __device__ Aff operator()(Aff f, Aff g) const { return Aff{g.a * f.a, g.a * f.b + g.b}; }
};
static bool same(Aff x, Aff y) { return x.a == y.a && x.b == y.b; }

// The context of the runtime's calls: the errors' name, no workspace, a stream of its own.
static AdsoacCx *cx() {
  static AdsoacCx c;
  static bool made = (adsoac_begin_(&c, "t", NULL, (cudaStream_t)&c), true);
  (void)made;
  return &c;
}

static const long long sizes[] = {0, 1, 2, 7, 8, 9, 255, 256, 257, 2047, 2048, 2049, 4096, 10001, 70000};

// The sequential exclusive scan that adsoac_scan's contract states.
template <typename T, typename Op>
static void seq_scan(const T *src, T *dst, long long n, T init, T *total, bool reverse, Op op) {
  T acc = init;
  for (long long k = 0; k < n; k++) {
    long long j = reverse ? n - 1 - k : k;
    dst[j] = acc;
    acc = reverse ? op(src[j], acc) : op(acc, src[j]);
  }
  *total = acc;
}

static void test_affine(long long n, bool reverse) {
  std::vector<Aff> src((size_t)n + 1), got((size_t)n + 1), want((size_t)n + 1);
  uint64_t s = 88172645463325252ull;
  for (long long k = 0; k < n; k++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    src[(size_t)k] = Aff{s | 1, s >> 3};
  }
  Aff init{3, 5}, total, wtotal;
  seq_scan(src.data(), want.data(), n, init, &wtotal, reverse, AffOp());
  Aff dtotal{0, 0}; // (the total to a device cell too)
  CHECK(!adsoac_scan(src.data(), got.data(), n, init, &total, &dtotal, reverse, AffOp(), cx()), "scan failed");
  CHECK(same(dtotal, wtotal), "affine scan n=%lld reverse=%d: the device's total differs", n, reverse);
  long long bad = -1;
  for (long long k = 0; k < n && bad < 0; k++)
    if (!same(got[(size_t)k], want[(size_t)k])) bad = k;
  CHECK(bad < 0, "affine scan n=%lld reverse=%d: prefix %lld differs", n, reverse, bad);
  CHECK(same(total, wtotal), "affine scan n=%lld reverse=%d: total differs", n, reverse);
  Aff t2, t3{0, 0};
  CHECK(!adsoac_scan(src.data(), (Aff *)NULL, n, init, &t2, (Aff *)NULL, reverse, AffOp(), cx()), "scan failed");
  CHECK(same(t2, wtotal), "affine total alone n=%lld reverse=%d differs", n, reverse);
  CHECK(!adsoac_scan(src.data(), (Aff *)NULL, n, init, (Aff *)NULL, &t3, reverse, AffOp(), cx()), "scan failed");
  CHECK(same(t3, wtotal), "affine total alone, on the device, n=%lld reverse=%d differs", n, reverse);
}

static void test_double(long long n, bool reverse) {
  std::vector<double> src((size_t)n + 1), got((size_t)n + 1), again((size_t)n + 1), want((size_t)n + 1);
  for (long long k = 0; k < n; k++) src[(size_t)k] = 0.25 + std::sin(0.37 * (double)k) * 0.2;
  double total, t2, wtotal;
  seq_scan(src.data(), want.data(), n, 1.5, &wtotal, reverse, AdsoacSum());
  CHECK(!adsoac_scan(src.data(), got.data(), n, 1.5, &total, (double *)NULL, reverse, AdsoacSum(), cx()), "scan failed");
  CHECK(!adsoac_scan(src.data(), again.data(), n, 1.5, &t2, (double *)NULL, reverse, AdsoacSum(), cx()), "scan failed");
  double worst = 0;
  for (long long k = 0; k < n; k++)
    worst = std::fmax(worst, std::fabs(got[(size_t)k] - want[(size_t)k]) / std::fabs(want[(size_t)k]));
  CHECK(worst < 1e-12, "double scan n=%lld reverse=%d: relative error %g", n, reverse, worst);
  CHECK(std::fabs(total - wtotal) <= 1e-12 * std::fabs(wtotal), "double total n=%lld: %.17g, want %.17g", n,
        total, wtotal);
  CHECK(!memcmp(got.data(), again.data(), sizeof(double) * (size_t)n) && !memcmp(&total, &t2, sizeof t2),
        "double scan n=%lld reverse=%d: two runs differ", n, reverse);
}

// A kernel as emit_par.c writes one: a grid-stride fold per thread, the block's tree, the
// partials reduced by adsoac_reduce.
template <typename T, typename Op>
static __global__ void __launch_bounds__(ADSOAC_BLOCK) fold_kernel(long long n, const T *x, T *part, T ne, Op op) {
  T r = ne;
  for (long long k = (long long)(blockIdx.x * blockDim.x + threadIdx.x); k < n; k += (long long)gridDim.x * blockDim.x)
    r = op(r, x[k]);
  adsoac_block_reduce(r, part, op);
}

template <typename T, typename Op> static T reduce(const std::vector<T> &x, T ne, Op op) {
  long long n = (long long)x.size();
  int g = adsoac_grid(n);
  T *part = NULL, out = ne;
  CHECK(!adsoac_dev_alloc((void **)&part, (size_t)(g + 1) * sizeof(T), cx()), "alloc");
  adsoac_emu_launch(g, ADSOAC_BLOCK, [&] { fold_kernel<T, Op>(n, x.data(), part, ne, op); });
  CHECK(!adsoac_reduce(part, g, &out, op, cx()), "reduce failed");
  adsoac_dev_free(part, cx());
  return out;
}

static void test_reduce(long long n) {
  std::vector<long long> xi((size_t)n);
  std::vector<double> xd((size_t)n);
  long long si = 0, mn = LLONG_MAX, mx = LLONG_MIN;
  double sd = 0;
  for (long long k = 0; k < n; k++) {
    xi[(size_t)k] = (k * 7919) % 1000003 - 500000;
    xd[(size_t)k] = 1.0 / (double)(k + 1);
    si += xi[(size_t)k], sd += xd[(size_t)k];
    mn = xi[(size_t)k] < mn ? xi[(size_t)k] : mn, mx = xi[(size_t)k] > mx ? xi[(size_t)k] : mx;
  }
  CHECK(reduce(xi, 0LL, AdsoacSum()) == si, "int sum n=%lld", n);
  CHECK(reduce(xi, LLONG_MAX, AdsoacMin()) == mn, "min n=%lld", n);
  CHECK(reduce(xi, LLONG_MIN, AdsoacMax()) == mx, "max n=%lld", n);
  double d = reduce(xd, 0.0, AdsoacSum());
  CHECK(std::fabs(d - sd) <= 1e-13 * sd, "double sum n=%lld: %.17g, want %.17g", n, d, sd);
}

// The workspace: blocks freed out of order, more blocks than the context holds inline (its
// stack grows in host memory); need is what a call held at once, and a second call with a
// workspace of need bytes allocates nothing, each block where the first put it.
static void test_workspace() {
  AdsoacWorkspace ws = {NULL, 0, 0};
  std::vector<char> mem;
  for (int round = 0; round < 3; round++) {
    if (round == 2) mem.assign(ws.need, 0), ws.base = mem.data(), ws.bytes = mem.size();
    AdsoacCx c;
    adsoac_begin_(&c, "t", &ws, (cudaStream_t)&c);
    long before = adsoac_emu_stats.allocs;
    void *a, *b, *d, *big, *many[ADSOAC_SLOTS + 2];
    CHECK(!adsoac_dev_alloc(&a, 100, &c) && !adsoac_dev_alloc(&b, 300, &c), "alloc");
    adsoac_dev_free(a, &c); // (below b: kept until b goes)
    CHECK(c.top == 256 + 512, "top %zu after freeing under the top", c.top);
    CHECK(!adsoac_dev_alloc(&d, 10, &c), "alloc");
    adsoac_dev_free(b, &c);
    adsoac_dev_free(d, &c);
    CHECK(c.top == 0 && c.n == 0, "top %zu, %d blocks: the stack empties", c.top, c.n);
    CHECK(!adsoac_dev_alloc(&big, 5000, &c), "alloc");
    for (int k = 0; k < ADSOAC_SLOTS + 2; k++) CHECK(!adsoac_dev_alloc(&many[k], 8, &c), "alloc");
    for (int k = ADSOAC_SLOTS + 1; k >= 0; k--) adsoac_dev_free(many[k], &c);
    adsoac_dev_free(big, &c);
    CHECK(c.top == 0 && c.n == 0, "top %zu, %d blocks: the stack empties", c.top, c.n);
    size_t want = 5120 + (ADSOAC_SLOTS + 2) * 256;
    CHECK(ws.need == want, "need %zu, want %zu", ws.need, want);
    CHECK(c.b != c.inl && c.cap > ADSOAC_SLOTS, "the stack grew");
    adsoac_end_(&c);
    long allocs = adsoac_emu_stats.allocs - before;
    CHECK(round < 2 ? allocs == ADSOAC_SLOTS + 6 : allocs == 0, "round %d: %ld allocations", round, allocs);
    if (round == 2) CHECK((char *)big == mem.data() + 0 && (char *)many[0] == mem.data() + 5120, "placement");
  }
}

// An unzeroed block (adsoac_dev_alloc_raw: the first kernel writes all of it) dirtied and
// freed comes back zeroed from adsoac_dev_alloc, from the call's stack and from a workspace.
static void test_raw() {
  std::vector<char> mem(4096, 0);
  for (int k = 0; k < 2; k++) {
    AdsoacWorkspace ws = {k ? mem.data() : NULL, k ? mem.size() : 0, 0};
    AdsoacCx c;
    adsoac_begin_(&c, "t", &ws, (cudaStream_t)&c);
    void *u, *z;
    CHECK(!adsoac_dev_alloc_raw(&u, 1000, &c), "alloc");
    memset(u, 0xcd, 1000);
    adsoac_dev_free(u, &c);
    CHECK(!adsoac_dev_alloc(&z, 1000, &c), "alloc");
    for (int i = 0; i < 1000; i++) CHECK(((unsigned char *)z)[i] == 0, "byte %d of a reused block: %d", i, ((unsigned char *)z)[i]);
    adsoac_dev_free(z, &c);
    adsoac_end_(&c);
  }
}

int main() {
  int checks = 0;
  test_workspace();
  checks++;
  test_raw();
  checks++;
  for (long long n : sizes)
    for (int rev = 0; rev < 2; rev++) {
      test_affine(n, rev);
      test_double(n, rev);
      checks += 2;
    }
  // tiles of 2048 elements: 600001 has more tiles than a block has threads (the tiles' scan
  // in runs of two per thread; slow in the emulation: once each way)
  test_affine(600001, false);
  test_double(600001, true);
  checks += 2;
  for (long long n : {1LL, 2LL, 255LL, 256LL, 257LL, 1000LL, 65537LL}) {
    test_reduce(n);
    checks++;
  }
  printf("%d cases, %d failures\n", checks, failures);
  return failures != 0;
}
