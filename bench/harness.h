// bench/harness.h: timing, data and checking helpers shared by the
// bench/*_main.c timing drivers. Header-only; every driver is one .c file.
// Not a test: nothing here decides pass/fail of the test suite.
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

// Relative tolerance of the f_vjp-vs-hand agreement check (brief: 1e-9).
#define BENCH_RTOL 1e-9

typedef struct {
  const char *name;  // benchmark name, first column of the table
  int n;             // problem size
  int reps;          // timed repetitions (median is reported)
  int warnings;      // number of failed checks
} Bench;

static volatile double bench_sink;  // keeps results observable

static double bench_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double bench_median(double *t, int k) {
  qsort(t, k, sizeof *t, bench_cmp_double);
  return k % 2 ? t[k / 2] : 0.5 * (t[k / 2 - 1] + t[k / 2]);
}

// BENCH_TIME(b, out_ms, expr): one warm-up evaluation of expr, then b->reps
// timed ones; out_ms receives the median in milliseconds.
#define BENCH_TIME(b, out_ms, expr)                           \
  do {                                                        \
    double *bench_t_ = malloc((size_t)(b)->reps * sizeof(double)); \
    bench_sink = (expr);                                      \
    for (int bench_r_ = 0; bench_r_ < (b)->reps; bench_r_++) { \
      double bench_t0_ = bench_now_ms();                      \
      bench_sink = (expr);                                    \
      bench_t_[bench_r_] = bench_now_ms() - bench_t0_;        \
    }                                                         \
    (out_ms) = bench_median(bench_t_, (b)->reps);             \
    free(bench_t_);                                           \
  } while (0)

static void bench_args(Bench *b, const char *name, int argc, char **argv) {
  b->name = name;
  b->n = 10000000;
  b->reps = 11;
  b->warnings = 0;
  if (argc > 1) b->n = atoi(argv[1]);
  if (argc > 2) b->reps = atoi(argv[2]);
  if (b->n < 1 || b->reps < 1) {
    fprintf(stderr, "usage: %s [N [REPS]]  (N >= 1, REPS >= 1)\n", argv[0]);
    exit(2);
  }
}

static double *bench_alloc(const Bench *b) {
  double *p = malloc((size_t)b->n * sizeof(double));
  if (!p) {
    fprintf(stderr, "%s: out of memory (n = %d)\n", b->name, b->n);
    exit(2);
  }
  return p;
}

// Deterministic data in [lo, hi): splitmix64 of (seed, i).
static void bench_fill(double *p, int n, unsigned seed, double lo, double hi) {
  for (int i = 0; i < n; i++) {
    unsigned long long z = (unsigned long long)seed * 0x9E3779B97F4A7C15ull + (unsigned long long)i;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    p[i] = lo + (hi - lo) * (double)(z >> 11) * (1.0 / 9007199254740992.0);
  }
}

static void bench_warn(Bench *b, const char *fmt, const char *what, double got,
                       double want, double err) {
  fprintf(stderr, "warning: %s: %s: ", b->name, what);
  fprintf(stderr, fmt, got, want, err);
  fputc('\n', stderr);
  b->warnings++;
}

// Scalars: |got - want| <= rtol * max(|got|, |want|).
static void bench_check_scalar(Bench *b, const char *what, double got,
                               double want, double rtol) {
  double den = fmax(fabs(got), fabs(want));
  double err = den > 0 ? fabs(got - want) / den : fabs(got - want);
  if (!(err <= rtol))
    bench_warn(b, "got %.17g, expected %.17g (rel. error %.3g)", what, got,
               want, err);
}

// Arrays, elementwise: |got[i] - want[i]| <= rtol * max(|got[i]|, |want[i]|,
// 1e-6 * max_j |want[j]|) (the floor keeps near-zero entries from failing on
// rounding alone). Reports the worst element.
static void bench_check_array(Bench *b, const char *what, const double *got,
                              const double *want, int n, double rtol) {
  double scale = 0.0;
  for (int i = 0; i < n; i++) scale = fmax(scale, fabs(want[i]));
  double worst = 0.0;
  int worst_i = 0;
  for (int i = 0; i < n; i++) {
    double den = fmax(fmax(fabs(got[i]), fabs(want[i])), 1e-6 * scale);
    double err = den > 0 ? fabs(got[i] - want[i]) / den : 0.0;
    if (!(err <= worst)) {  // also catches NaN
      worst = isnan(err) ? INFINITY : err;
      worst_i = i;
    }
  }
  if (!(worst <= rtol)) {
    char buf[160];
    snprintf(buf, sizeof buf, "%s[%d]", what, worst_i);
    bench_warn(b, "got %.17g, expected %.17g (rel. error %.3g)", buf,
               got[worst_i], want[worst_i], worst);
  }
}

static int bench_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// No hand-written adjoint (the legacy_* benchmarks): pass BENCH_NO_HAND as the hand time,
// and the row shows "-" in the hand columns.
#define BENCH_NO_HAND NAN

// One table row; the header is printed by bench/run.sh (the same widths).
static void bench_row(const Bench *b, double seq, double pri, double vjp,
                      double hand) {
  printf("%-14s %10d %4d %10.3f %10.3f %10.3f ", b->name, b->n, bench_threads(), seq, pri,
         vjp);
  if (isnan(hand))
    printf("%10s ", "-");
  else
    printf("%10.3f ", hand);
  printf("%10.2f %8.2f %8.2f ", vjp / pri, pri / seq, vjp / seq);
  if (isnan(hand))
    printf("%8s", "-");
  else
    printf("%8.2f", vjp / hand);
  printf("  %s\n", b->warnings ? "MISMATCH" : "ok");
  fflush(stdout);
}

// Sanity check of the hand-written reference against the sequential original:
// central difference (fp - fm) / (2h) against the analytic derivative g.
// Loose tolerance: finite differences carry rounding error ~ eps*|f|/h.
static void bench_check_fd(Bench *b, const char *what, double g, double fp,
                           double fm, double h) {
  double fd = (fp - fm) / (2.0 * h);
  double err = fabs(fd - g) / fmax(fmax(fabs(g), fabs(fd)), 1.0);
  if (!(err <= 1e-6))
    bench_warn(b, "hand-written adjoint %.17g, finite difference %.17g "
               "(rel. error %.3g)", what, g, fd, err);
}

// The same for a benchmark without a hand-written adjoint (legacy_*): f_vjp's derivative g
// against the central difference of the sequential original.
static void bench_check_vjp_fd(Bench *b, const char *what, double g, double fp, double fm,
                               double h) {
  double fd = (fp - fm) / (2.0 * h);
  double err = fabs(fd - g) / fmax(fmax(fabs(g), fabs(fd)), 1.0);
  if (!(err <= 1e-6))
    bench_warn(b, "f_vjp %.17g, finite difference of the sequential C %.17g "
               "(rel. error %.3g)", what, g, fd, err);
}

// Sum of a[i]*b[i] + c[i]*d[i] in long double (c, d may be NULL).
static double bench_inner(const double *a, const double *b, const double *c,
                          const double *d, int n) {
  long double s = 0.0L;
  for (int i = 0; i < n; i++) {
    s += (long double)a[i] * b[i];
    if (c) s += (long double)c[i] * d[i];
  }
  return (double)s;
}

// "label: what", the message of a check on a small input (label NULL: what).
static const char *bench_what(const char *label, const char *what) {
  static char buf[160];
  if (!label) return what;
  snprintf(buf, sizeof buf, "%s: %s", label, what);
  return buf;
}

// m doubles of scratch (at least one); exits on failure.
static double *bench_dalloc(int m) {
  double *p = malloc((size_t)(m > 0 ? m : 1) * sizeof *p);
  if (!p) {
    fprintf(stderr, "bench: out of memory\n");
    exit(2);
  }
  return p;
}

static void bench_dcopy(double *dst, const double *src, int m) {
  memcpy(dst, src, (size_t)m * sizeof *dst);
}

#endif
