/* e2e_driver.h: the fixed part of every end-to-end driver that run_e2e.py generates.
 *
 * The generated driver describes each marked function (its parameters, how to build inputs
 * for one case, how to call f, f_ref, f_ref64, f_vjp and f_jvp) and calls e2e_run_func().
 * This file does the checking described in run_e2e.py's docstring: primal vs the original,
 * f_vjp vs central finite differences of the double-precision original, f_jvp vs finite
 * differences along a random direction, and <y_dot, y_bar> == <x_dot, x_bar>.
 * Every check prints one line "PASS ..." or "FAIL ...". */
#ifndef E2E_DRIVER_H
#define E2E_DRIVER_H

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { E2E_ISCAL, E2E_FSCAL, E2E_FARR, E2E_IARR, E2E_COMM }; /* parameter kinds */
enum { E2E_REF, E2E_REF64, E2E_PRIMAL, E2E_VJP, E2E_JVP }; /* what a call runs */
#define E2E_MAXP 32
#define E2E_GUARD 16 /* canary bytes (in elements) before and after every buffer */

/* ---- MPI programs (-DE2E_MPI; run_e2e.py's `mpi` line) ----
 * Every rank runs the driver with inputs of its own (the random stream depends on the rank)
 * and makes every call at the same time (f, f_ref, f_vjp and f_jvp are collective).  The
 * whole multi-rank program is what is differentiated (language.md §10): L sums seed times
 * output over every rank, each finite difference perturbs one element of one rank's inputs,
 * and the identity sums its terms over the ranks; each rank checks its own outputs and
 * adjoints.  A MPI_Comm parameter gets MPI_COMM_WORLD. */
#ifdef E2E_MPI
#include <mpi.h>
static int e2e_rank, e2e_nranks = 1;
static inline void e2e_init(void) {
  MPI_Init(NULL, NULL);
  MPI_Comm_rank(MPI_COMM_WORLD, &e2e_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &e2e_nranks);
}
static inline double e2e_sum(double x) { /* over the ranks */
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return x;
}
static inline double e2e_max(double x) { /* over the ranks */
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return x;
}
static inline void e2e_done(void) { MPI_Finalize(); }
#else
enum { e2e_rank = 0, e2e_nranks = 1 };
static inline void e2e_init(void) {}
static inline double e2e_sum(double x) { return x; }
static inline double e2e_max(double x) { return x; }
static inline void e2e_done(void) {}
#endif

/* ---- deterministic random numbers (splitmix64) ---- */
typedef struct {
  uint64_t s;
} E2ERng;
static inline uint64_t e2e_next(E2ERng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static inline double e2e_unif(E2ERng *r, double lo, double hi) {
  return lo + (hi - lo) * ((double)(e2e_next(r) >> 11) * 0x1.0p-53);
}
static inline long e2e_randint(E2ERng *r, long lo, long hi) { /* in [lo, hi) */
  return hi > lo ? lo + (long)(e2e_next(r) % (uint64_t)(hi - lo)) : lo;
}
static inline double e2e_round(int f32, double x) { return f32 ? (double)(float)x : x; }

/* ---- descriptions the generator emits ---- */
typedef struct {
  const char *name;
  int kind, f32, written, active;
  size_t esize; /* element size of int arrays */
} E2EDesc;

typedef struct { /* the values of one parameter for one case */
  long len;
  double *v; /* float scalars and arrays, already rounded to the parameter's type */
  long *iv;  /* int scalars and arrays */
} E2EVal;

typedef struct { /* what the generated call function reads */
  void *p[E2E_MAXP], *b[E2E_MAXP], *d[E2E_MAXP];
  double s[E2E_MAXP], sd[E2E_MAXP], rbar;
  long iv[E2E_MAXP], len[E2E_MAXP];
  void *rdot;
} E2EArgs;

typedef struct {
  const char *name;
  int np;
  const E2EDesc *pd;
  int ret, ret_f32; /* ret: 0 void, 1 floating point (active), 2 integer */
  int any_f32;      /* the program computes in float: float tolerances */
  void (*setup)(E2EVal *V, const long *sz, E2ERng *rng);
  double (*call)(int mode, E2EArgs *a);
  int nvars;
  const char *const *vars;
  int ncases;
  const long *cases; /* ncases * nvars */
  int nseeds;
  double rtol, atol, grad_rtol, grad_atol, id_rtol, fd_h;
} E2EFunc;

/* ---- reporting ---- */
static int e2e_nfail, e2e_ncheck;
static char e2e_ctx[256];

static inline void e2e_line(int ok, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("%s %s: ", ok ? "PASS" : "FAIL", e2e_ctx);
  vprintf(fmt, ap);
  putchar('\n');
  va_end(ap);
  e2e_ncheck++;
  if (!ok) e2e_nfail++;
}

/* Compare got[i] with exp[i]: |got - exp| <= rtol*|exp| + atol + extra[i].  With one-sided
 * finite differences dp/dm given, an entry whose dp and dm disagree by more than 10 tolerances
 * plus kabs (far more than the curvature of a smooth function explains) lies at a kink or a
 * jump: there the got value must be finite and lie between dp and dm. */
static inline void e2e_compare(const char *what, long n, const double *got, const double *exp,
                        const double *dp, const double *dm, const double *extra, double rtol,
                        double atol, double kabs) {
  long worst = -1, nkink = 0;
  double wratio = -1, wtol = 0, wlo = 0, whi = 0;
  int wkink = 0;
  int ok = 1;
  for (long i = 0; i < n; i++) {
    double g = got[i], e = exp[i];
    double tol = rtol * fabs(e) + atol + (extra ? extra[i] : 0.0), err, lo = 0, hi = 0;
    int kink = dp && fabs(dp[i] - dm[i]) > 10 * tol + kabs;
    if (!dp && isnan(g) && isnan(e)) continue; /* a primal NaN reproduced */
    if (kink) {
      lo = fmin(dp[i], dm[i]) - tol, hi = fmax(dp[i], dm[i]) + tol;
      nkink++;
      err = g < lo ? lo - g : g > hi ? g - hi : 0.0;
    } else {
      err = fabs(g - e);
    }
    if (!isfinite(g) && !(isinf(g) && g == e)) err = INFINITY;
    double ratio = isnan(err) ? INFINITY : err / (tol + 1e-300);
    if (!(err <= tol)) ok = 0;
    if (ratio > wratio) wratio = ratio, worst = i, wtol = tol, wkink = kink, wlo = lo, whi = hi;
  }
  char kinks[64] = "";
  if (nkink) snprintf(kinks, sizeof kinks, ", %ld at kinks", nkink);
  if (ok)
    e2e_line(1, "%s (%ld entries%s)", what, n, kinks);
  else if (wkink)
    e2e_line(0, "%s: worst [%ld] got %.10g, at a kink: expected finite, in [%.10g, %.10g]%s", what,
             worst, got[worst], wlo, whi, kinks);
  else
    e2e_line(0, "%s: worst [%ld] got %.10g expected %.10g (tol %.3g%s%s)", what, worst, got[worst],
             exp[worst], wtol, dp ? ", finite differences" : "", kinks);
}

/* ---- the lengths of the buffers a call is given (tests/gpu/cuda_shim.py copies that many
 * bytes to and from the device) ---- */
static struct {
  const void *p;
  long bytes;
} e2e_regs[1024];
long e2e_bytes(const void *p);
long e2e_bytes(const void *p) { /* -1: not a buffer of the driver's */
  for (int i = 0; i < 1024; i++)
    if (e2e_regs[i].p == p && p) return e2e_regs[i].bytes;
  return -1;
}
static inline void e2e_reg(const void *p, long bytes) {
  for (int i = 0; i < 1024; i++)
    if (!e2e_regs[i].p) {
      e2e_regs[i].p = p, e2e_regs[i].bytes = bytes;
      return;
    }
  abort();
}
static inline void e2e_unreg(const void *p) {
  for (int i = 0; i < 1024; i++)
    if (e2e_regs[i].p == p) e2e_regs[i].p = NULL;
}

/* ---- buffers with canaries ---- */
typedef struct {
  unsigned char *p;
  long len;
  size_t es;
} E2EBuf;
typedef struct {
  E2EArgs a;
  E2EBuf buf[3 * E2E_MAXP + 1];
  int nbuf;
} E2ECall;

/* The canary byte at byte j of a guard (which starts at an element's start): elements of 4
 * or 8 bytes hold -0.0, which a write of the same value aside, even `+= 0.0` changes (to
 * +0.0): an adjoint update beyond the array shows; other sizes hold 0xA5 bytes. */
static inline unsigned char e2e_guard_byte(size_t j, size_t es) {
  return es == 4 || es == 8 ? (j % es == es - 1 ? 0x80 : 0x00) : 0xA5;
}
static inline void *e2e_buf(E2ECall *c, long len, size_t es) {
  size_t bytes = ((size_t)len + 2 * E2E_GUARD) * es;
  unsigned char *m = malloc(bytes);
  if (!m) abort();
  memset(m, 0xA5, bytes);
  for (size_t j = 0; j < E2E_GUARD * es; j++)
    m[j] = m[bytes - E2E_GUARD * es + j] = e2e_guard_byte(j, es);
  c->buf[c->nbuf++] = (E2EBuf){m + E2E_GUARD * es, len, es};
  e2e_reg(m + E2E_GUARD * es, len > 0 ? len * (long)es : 0);
  return m + E2E_GUARD * es;
}
static inline void e2e_release(E2ECall *c) {
  for (int i = 0; i < c->nbuf; i++)
    e2e_unreg(c->buf[i].p), free(c->buf[i].p - E2E_GUARD * c->buf[i].es);
  c->nbuf = 0;
}
static inline int e2e_guards_ok(const E2ECall *c) {
  for (int i = 0; i < c->nbuf; i++) {
    const E2EBuf *b = &c->buf[i];
    size_t g = E2E_GUARD * b->es;
    for (size_t j = 0; j < g; j++)
      if (b->p[(long)j - (long)g] != e2e_guard_byte(j, b->es) ||
          b->p[b->len * b->es + j] != e2e_guard_byte(j, b->es))
        return 0;
  }
  return 1;
}

static inline size_t e2e_es(const E2EDesc *d, int force64) {
  if (d->kind == E2E_IARR) return d->esize;
  return d->f32 && !force64 ? sizeof(float) : sizeof(double);
}
static inline void e2e_put(void *p, long i, double x, size_t es) {
  if (es == sizeof(float)) ((float *)p)[i] = (float)x;
  else ((double *)p)[i] = x;
}
static inline double e2e_get(const void *p, long i, size_t es) {
  return es == sizeof(float) ? (double)((const float *)p)[i] : ((const double *)p)[i];
}
static inline void e2e_iput(void *p, long i, long x, size_t es) {
  switch (es) {
  case 1: ((int8_t *)p)[i] = (int8_t)x; break;
  case 2: ((int16_t *)p)[i] = (int16_t)x; break;
  case 4: ((int32_t *)p)[i] = (int32_t)x; break;
  default: ((int64_t *)p)[i] = (int64_t)x; break;
  }
}
static inline long e2e_iget(const void *p, long i, size_t es) {
  switch (es) {
  case 1: return ((const int8_t *)p)[i];
  case 2: return ((const int16_t *)p)[i];
  case 4: return ((const int32_t *)p)[i];
  default: return (long)((const int64_t *)p)[i];
  }
}
static inline double *e2e_dalloc(long n) {
  if (n < 0 || n > (1L << 40)) abort(); // (a length the spec computed wrong; also for gcc's
                                        // -Walloc-size-larger-than)
  double *p = calloc((size_t)n + 1, sizeof(double));
  if (!p) abort();
  return p;
}
static inline long *e2e_ialloc(long n) {
  if (n < 0 || n > (1L << 40)) abort();
  long *p = calloc((size_t)n + 1, sizeof(long));
  if (!p) abort();
  return p;
}

/* Primal arguments from the values V (force64: every float becomes double, for f_ref64). */
static inline void e2e_args(const E2EFunc *F, const E2EVal *V, int force64, E2ECall *c) {
  memset(c, 0, sizeof *c);
  for (int k = 0; k < F->np; k++) {
    const E2EDesc *d = &F->pd[k];
    size_t es = e2e_es(d, force64);
    c->a.len[k] = V[k].len;
    if (d->kind == E2E_ISCAL) c->a.iv[k] = V[k].iv[0];
    if (d->kind == E2E_FSCAL) c->a.s[k] = V[k].v[0];
    if (d->kind == E2E_FARR) {
      c->a.p[k] = e2e_buf(c, V[k].len, es);
      for (long i = 0; i < V[k].len; i++) e2e_put(c->a.p[k], i, V[k].v[i], es);
    }
    if (d->kind == E2E_IARR) {
      c->a.p[k] = e2e_buf(c, V[k].len, es);
      for (long i = 0; i < V[k].len; i++) e2e_iput(c->a.p[k], i, V[k].iv[i], es);
    }
  }
}

/* ---- struct parameters ----
 * The generator splits a struct parameter into one parameter per field (named "p.f": an
 * array per field for an array of structs, a scalar per field for a struct passed by value),
 * which every check above handles as it handles arrays and scalars; the call function packs
 * the fields into structs of the program's layout before the call and unpacks them after.
 * The integer fields of an adjoint or tangent struct (p_bar, p_dot) hold E2E_CANARY, and must
 * still hold it after the call (language.md 2: neither read nor written). */
#define E2E_CANARY 0x5A5A5A5A
static inline void *e2e_sbuf(long n, size_t size) { /* n structs, canary bytes around them */
  size_t bytes = ((size_t)(n > 0 ? n : 0) + 2 * E2E_GUARD) * size;
  unsigned char *m = malloc(bytes);
  if (!m) abort();
  memset(m, 0xA5, bytes);
  e2e_reg(m + E2E_GUARD * size, (n > 0 ? n : 0) * (long)size);
  return m + E2E_GUARD * size;
}
/* Releases a struct buffer; ok: the caller's checks of it held.  A failure is reported, and
 * with report a success too. */
static inline void e2e_sdone(void *p, long n, size_t size, int ok, int report, const char *what) {
  unsigned char *b = p;
  size_t len = (size_t)(n > 0 ? n : 0) * size;
  int guards = 1;
  for (size_t j = 1; j <= E2E_GUARD * size; j++)
    if (b[-(long)j] != 0xA5 || b[len + j - 1] != 0xA5) guards = 0;
  if (!ok || !guards || report)
    e2e_line(ok && guards, "%s: %s", what,
             !guards ? "a write outside the array of structs (canary overwritten)"
             : !ok   ? "an integer field of a derivative struct was written"
                     : "integer fields untouched, no write outside the structs");
  e2e_unreg(b);
  free(b - E2E_GUARD * size);
}

/* A typed buffer holding vals (rounded to the type), registered with the call. */
static inline void *e2e_filled(E2ECall *c, const double *vals, long len, size_t es) {
  void *p = e2e_buf(c, len, es);
  for (long i = 0; i < len; i++) e2e_put(p, i, vals[i], es);
  return p;
}

/* Contents of every written array after a call, as doubles (Y[k], NULL for the others). */
static inline void e2e_read_outputs(const E2EFunc *F, const E2EVal *V, const E2ECall *c, int force64,
                             double **Y) {
  for (int k = 0; k < F->np; k++) {
    const E2EDesc *d = &F->pd[k];
    Y[k] = NULL;
    if (!d->written) continue;
    Y[k] = e2e_dalloc(V[k].len);
    for (long i = 0; i < V[k].len; i++)
      Y[k][i] = d->kind == E2E_IARR ? (double)e2e_iget(c->a.p[k], i, d->esize)
                                    : e2e_get(c->a.p[k], i, e2e_es(d, force64));
  }
}
static inline void e2e_free_all(double **Y, int n) {
  for (int k = 0; k < n; k++) free(Y[k]), Y[k] = NULL;
}

static inline double e2e_maxabs(const double *x, long n, double m) {
  for (long i = 0; i < n; i++)
    if (fabs(x[i]) > m) m = fabs(x[i]);
  return m;
}

/* The outputs of a call equal the reference's (Yref, rref). */
/* The size of derivatives, for absolute tolerances: max over entries of the smaller one-sided
 * difference, so that a jump (log(x) at x == 0 differs by log(h)/h) does not inflate it. */
static inline double e2e_dscale(const double *dp, const double *dm, long n, double m) {
  for (long i = 0; i < n; i++) m = fmax(m, fmin(fabs(dp[i]), fabs(dm[i])));
  return m;
}

static inline void e2e_check_outputs(const char *call, const E2EFunc *F, const E2EVal *V,
                              const E2ECall *c, double r, double **Yref, double rref) {
  double *Y[E2E_MAXP];
  char what[128];
  e2e_read_outputs(F, V, c, 0, Y);
  for (int k = 0; k < F->np; k++) {
    if (!Y[k]) continue;
    int exact = F->pd[k].kind == E2E_IARR;
    double scale = e2e_maxabs(Yref[k], V[k].len, 1.0);
    snprintf(what, sizeof what, "%s output %s", call, F->pd[k].name);
    e2e_compare(what, V[k].len, Y[k], Yref[k], NULL, NULL, NULL, exact ? 0 : F->rtol,
                exact ? 0 : F->atol * scale, 0);
  }
  if (F->ret) {
    snprintf(what, sizeof what, "%s return value", call);
    e2e_compare(what, 1, &r, &rref, NULL, NULL, NULL, F->ret == 2 ? 0 : F->rtol,
                F->ret == 2 ? 0 : F->atol * fmax(1.0, fabs(rref)), 0);
  }
  e2e_free_all(Y, F->np);
}

/* Canaries intact, and arrays the call must only read (inputs, tangents) unchanged. */
static inline void e2e_check_integrity(const char *call, const E2EFunc *F, const E2EVal *V,
                                const E2ECall *c, double **D) {
  int ok = e2e_guards_ok(c);
  const char *bad = ok ? NULL : "a write outside an array (canary overwritten)";
  for (int k = 0; k < F->np && ok; k++) {
    const E2EDesc *d = &F->pd[k];
    if (d->written || (d->kind != E2E_FARR && d->kind != E2E_IARR)) continue;
    size_t es = e2e_es(d, 0);
    for (long i = 0; i < V[k].len && ok; i++) {
      if (d->kind == E2E_IARR ? e2e_iget(c->a.p[k], i, es) != V[k].iv[i]
                              : e2e_get(c->a.p[k], i, es) != V[k].v[i])
        ok = 0, bad = "a read-only input array was modified";
      if (D && D[k] && d->kind == E2E_FARR && e2e_get(c->a.d[k], i, es) != D[k][i])
        ok = 0, bad = "a read-only tangent array was modified";
    }
  }
  if (ok) e2e_line(1, "%s memory (canaries, read-only arrays)", call);
  else e2e_line(0, "%s memory: %s", call, bad);
}

/* ---- the double-precision reference, for finite differences ---- */
static inline double e2e_eval64(const E2EFunc *F, const E2EVal *V, double **Y) {
  E2ECall c;
  e2e_args(F, V, 1, &c);
  double r = F->call(E2E_REF64, &c.a);
  e2e_read_outputs(F, V, &c, 1, Y);
  e2e_release(&c);
  return r;
}
/* L = sum over written float arrays of S*final + rbar*ret; *mag = sum of |terms|. */
static inline double e2e_L(const E2EFunc *F, const E2EVal *V, double **S, double rbar, double *mag) {
  double *Y[E2E_MAXP], r = e2e_eval64(F, V, Y), L = 0, m = 0;
  for (int k = 0; k < F->np; k++)
    if (Y[k] && F->pd[k].kind == E2E_FARR)
      for (long i = 0; i < V[k].len; i++) L += S[k][i] * Y[k][i], m += fabs(S[k][i] * Y[k][i]);
  if (F->ret == 1) L += rbar * r, m += fabs(rbar * r);
  e2e_free_all(Y, F->np);
  if (mag) *mag = e2e_sum(m);
  return e2e_sum(L);
}

static inline void e2e_vcopy(const E2EFunc *F, const E2EVal *V, E2EVal *W) {
  for (int k = 0; k < F->np; k++) {
    W[k] = V[k];
    if (V[k].v) W[k].v = e2e_dalloc(V[k].len), memcpy(W[k].v, V[k].v, V[k].len * sizeof(double));
    if (V[k].iv) W[k].iv = e2e_ialloc(V[k].len), memcpy(W[k].iv, V[k].iv, V[k].len * sizeof(long));
  }
}
static inline void e2e_vfree(const E2EFunc *F, E2EVal *V) {
  for (int k = 0; k < F->np; k++) free(V[k].v), free(V[k].iv), V[k].v = NULL, V[k].iv = NULL;
}
static inline int e2e_isactive(const E2EDesc *d) {
  return d->active && (d->kind == E2E_FARR || d->kind == E2E_FSCAL);
}
static inline double *e2e_random(E2ERng *rng, long n, int f32) {
  double *x = e2e_dalloc(n);
  for (long i = 0; i < n; i++) x[i] = e2e_round(f32, e2e_unif(rng, -1.0, 1.0));
  return x;
}

/* ---- one case: primal, vjp, jvp ---- */
static inline void e2e_one(const E2EFunc *F, const E2EVal *V, E2ERng *rng) {
  const int np = F->np;
  const E2EDesc *pd = F->pd;
  double *Yref[E2E_MAXP], rref, r, eps_t = F->any_f32 ? FLT_EPSILON : DBL_EPSILON;
  E2ECall c;
  char what[128];

  e2e_args(F, V, 0, &c); /* the original, compiled by cc */
  rref = F->call(E2E_REF, &c.a);
  e2e_read_outputs(F, V, &c, 0, Yref);
  e2e_release(&c);

  e2e_args(F, V, 0, &c); /* a. primal */
  r = F->call(E2E_PRIMAL, &c.a);
  e2e_check_outputs("primal", F, V, &c, r, Yref, rref);
  e2e_check_integrity("primal", F, V, &c, NULL);
  e2e_release(&c);

  /* b. vjp: seeds S in written arrays' p_bar, pre-existing values P in the others' */
  double *S[E2E_MAXP] = {0}, *P[E2E_MAXP] = {0}, *G[E2E_MAXP] = {0};
  double rbar = e2e_round(F->ret_f32, e2e_unif(rng, 0.5, 1.5));
  e2e_args(F, V, 0, &c);
  for (int k = 0; k < np; k++) {
    if (pd[k].kind == E2E_FARR && pd[k].written) S[k] = e2e_random(rng, V[k].len, pd[k].f32);
    if (!e2e_isactive(&pd[k])) continue;
    if (!pd[k].written) P[k] = e2e_random(rng, V[k].len, pd[k].f32);
    c.a.b[k] = e2e_filled(&c, pd[k].written ? S[k] : P[k], V[k].len, e2e_es(&pd[k], 0));
  }
  c.a.rbar = rbar;
  r = F->call(E2E_VJP, &c.a);
  e2e_check_outputs("vjp", F, V, &c, r, Yref, rref);
  e2e_check_integrity("vjp", F, V, &c, NULL);
  for (int k = 0; k < np; k++) {
    if (!e2e_isactive(&pd[k])) continue;
    G[k] = e2e_dalloc(V[k].len);
    for (long i = 0; i < V[k].len; i++)
      G[k][i] = e2e_get(c.a.b[k], i, e2e_es(&pd[k], 0)) - (P[k] ? P[k][i] : 0.0);
  }
  e2e_release(&c);

  /* finite differences of L, one active element at a time */
  double *FD[E2E_MAXP] = {0}, *DP[E2E_MAXP] = {0}, *DM[E2E_MAXP] = {0}, *EX[E2E_MAXP] = {0};
  double gscale = 1.0, mag;
  E2EVal W[E2E_MAXP];
  e2e_vcopy(F, V, W);
  double L0 = e2e_L(F, W, S, rbar, &mag);
  for (int k = 0; k < np; k++) {
    if (!G[k]) continue;
    FD[k] = e2e_dalloc(V[k].len), DP[k] = e2e_dalloc(V[k].len);
    DM[k] = e2e_dalloc(V[k].len), EX[k] = e2e_dalloc(V[k].len);
    for (int q = 0; q < e2e_nranks; q++) /* (MPI: rank q's elements, one at a time) */
      for (long i = 0; i < V[k].len; i++) {
        int mine = q == e2e_rank;
        double v = V[k].v[i], h = F->fd_h * fmax(1.0, fabs(v)), xp = v + h, xm = v - h;
        if (mine) W[k].v[i] = xp;
        double Lp = e2e_L(F, W, S, rbar, NULL);
        if (mine) W[k].v[i] = xm;
        double Lm = e2e_L(F, W, S, rbar, NULL);
        if (!mine) continue;
        W[k].v[i] = v;
        FD[k][i] = (Lp - Lm) / (xp - xm);
        DP[k][i] = (Lp - L0) / (xp - v), DM[k][i] = (L0 - Lm) / (v - xm);
        EX[k][i] = 8 * DBL_EPSILON * mag / h;
      }
    gscale = e2e_dscale(DP[k], DM[k], V[k].len, gscale);
  }
  for (int k = 0; k < np; k++) {
    if (!G[k]) continue;
    snprintf(what, sizeof what, "vjp %s_bar%s", pd[k].name,
             pd[k].written ? " (adjoint of initial contents)" : " (accumulated)");
    e2e_compare(what, V[k].len, G[k], FD[k], DP[k], DM[k], EX[k], F->grad_rtol,
                F->grad_atol * gscale, 1e-3 * gscale);
  }
  e2e_free_all(FD, np), e2e_free_all(DP, np), e2e_free_all(DM, np), e2e_free_all(EX, np);
  e2e_vfree(F, W);

  /* c. jvp along a random direction D */
  double *D[E2E_MAXP] = {0}, *Yd[E2E_MAXP], rdot = 0, xmax = 1.0;
  e2e_args(F, V, 0, &c);
  for (int k = 0; k < np; k++) {
    if (!e2e_isactive(&pd[k])) continue;
    D[k] = e2e_random(rng, V[k].len, pd[k].f32);
    xmax = e2e_maxabs(V[k].v, V[k].len, xmax);
    if (pd[k].kind == E2E_FSCAL) c.a.sd[k] = D[k][0];
    else c.a.d[k] = e2e_filled(&c, D[k], V[k].len, e2e_es(&pd[k], 0));
  }
  size_t res = F->ret_f32 ? sizeof(float) : sizeof(double);
  if (F->ret == 1) c.a.rdot = e2e_buf(&c, 1, res);
  r = F->call(E2E_JVP, &c.a);
  e2e_check_outputs("jvp", F, V, &c, r, Yref, rref);
  e2e_check_integrity("jvp", F, V, &c, D);
  for (int k = 0; k < np; k++) {
    Yd[k] = NULL;
    if (pd[k].kind != E2E_FARR || !pd[k].written) continue;
    Yd[k] = e2e_dalloc(V[k].len);
    for (long i = 0; i < V[k].len; i++) Yd[k][i] = e2e_get(c.a.d[k], i, e2e_es(&pd[k], 0));
  }
  if (F->ret == 1) rdot = e2e_get(c.a.rdot, 0, res);
  e2e_release(&c);

  /* finite differences of every output along D */
  double h = F->fd_h * e2e_max(xmax), *Y0[E2E_MAXP], *Yp[E2E_MAXP], *Ym[E2E_MAXP], r0, rp, rm;
  E2EVal Wp[E2E_MAXP], Wm[E2E_MAXP];
  e2e_vcopy(F, V, Wp), e2e_vcopy(F, V, Wm);
  for (int k = 0; k < np; k++)
    for (long i = 0; D[k] && i < V[k].len; i++) Wp[k].v[i] += h * D[k][i], Wm[k].v[i] -= h * D[k][i];
  r0 = e2e_eval64(F, V, Y0), rp = e2e_eval64(F, Wp, Yp), rm = e2e_eval64(F, Wm, Ym);
  e2e_vfree(F, Wp), e2e_vfree(F, Wm);
  double oscale = 1.0;
  for (int k = 0; k <= np; k++) { /* k == np: the return value */
    long n = k < np ? (Yd[k] ? V[k].len : 0) : (F->ret == 1);
    double *y0 = k < np ? Y0[k] : &r0, *yp = k < np ? Yp[k] : &rp, *ym = k < np ? Ym[k] : &rm;
    for (long i = 0; i < n; i++)
      oscale = fmax(oscale, fmin(fabs(yp[i] - y0[i]), fabs(y0[i] - ym[i])) / h);
  }
  for (int k = 0; k <= np; k++) {
    long n = k < np ? (Yd[k] ? V[k].len : 0) : (F->ret == 1);
    if ((k < np && !Yd[k]) || (k == np && F->ret != 1)) continue;
    double *y0 = k < np ? Y0[k] : &r0, *yp = k < np ? Yp[k] : &rp, *ym = k < np ? Ym[k] : &rm;
    double *got = k < np ? Yd[k] : &rdot, *fd = e2e_dalloc(n), *dp = e2e_dalloc(n),
           *dm = e2e_dalloc(n), *ex = e2e_dalloc(n);
    for (long i = 0; i < n; i++) {
      fd[i] = (yp[i] - ym[i]) / (2 * h), dp[i] = (yp[i] - y0[i]) / h, dm[i] = (y0[i] - ym[i]) / h;
      ex[i] = 8 * DBL_EPSILON * (fabs(yp[i]) + fabs(y0[i]) + fabs(ym[i])) / h;
    }
    if (k < np) snprintf(what, sizeof what, "jvp %s_dot (tangent of final contents)", pd[k].name);
    else snprintf(what, sizeof what, "jvp ret_dot");
    e2e_compare(what, n, got, fd, dp, dm, ex, F->grad_rtol, F->grad_atol * oscale, 1e-3 * oscale);
    free(fd), free(dp), free(dm), free(ex);
  }
  e2e_free_all(Y0, np), e2e_free_all(Yp, np), e2e_free_all(Ym, np);

  /* <y_dot, y_bar> == <x_dot, x_bar>, with x_bar from the vjp above */
  double lhs = 0, rhs = 0, tmag = 0, pmag = 0;
  for (int k = 0; k < np; k++) {
    for (long i = 0; G[k] && i < V[k].len; i++) {
      lhs += D[k][i] * G[k][i], tmag += fabs(D[k][i] * G[k][i]);
      if (P[k]) pmag += fabs(D[k][i] * P[k][i]);
    }
    for (long i = 0; Yd[k] && i < V[k].len; i++)
      rhs += S[k][i] * Yd[k][i], tmag += fabs(S[k][i] * Yd[k][i]);
  }
  if (F->ret == 1) rhs += rbar * rdot, tmag += fabs(rbar * rdot);
  lhs = e2e_sum(lhs), rhs = e2e_sum(rhs), tmag = e2e_sum(tmag), pmag = e2e_sum(pmag);
  const char *idenv = getenv("E2E_ID_RTOL"); /* only for the fd_fake self-check */
  double idtol = (idenv ? atof(idenv) : F->id_rtol) * tmag + 4 * eps_t * pmag + 1e-300;
  if (fabs(lhs - rhs) <= idtol) e2e_line(1, "jvp/vjp identity <y_dot,y_bar> == <x_dot,x_bar>");
  else
    e2e_line(0, "jvp/vjp identity: <y_dot,y_bar> = %.10g but <x_dot,x_bar> = %.10g (tol %.3g)", rhs,
             lhs, idtol);
  e2e_free_all(Yd, np), e2e_free_all(D, np), e2e_free_all(S, np), e2e_free_all(P, np);
  e2e_free_all(G, np), e2e_free_all(Yref, np);
}

/* ---- E2E_HASH=FILE (run_e2e.py --determinism): no checks, the bits of every result ----
 * f, f_vjp and f_jvp once per case, on the inputs, seeds and directions the checks use; one
 * line per call: "HASH <case> <call> <hex>", an FNV-1a hash of the return value and of every
 * array the call writes (outputs, adjoints, tangents), appended to FILE (MPI: FILE.RANK).
 * The harness compares the lines of runs at different numbers of threads. */
static inline FILE *e2e_hash_file(void) {
  static FILE *f;
  if (!f) {
    char path[4096];
    const char *base = getenv("E2E_HASH");
    if (e2e_nranks > 1) snprintf(path, sizeof path, "%s.%d", base, (int)e2e_rank);
    else snprintf(path, sizeof path, "%s", base);
    f = fopen(path, "a");
    if (!f) abort();
  }
  return f;
}
static inline uint64_t e2e_fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001B3ull;
  return h;
}
static inline void e2e_hash_call(const char *call, const E2EFunc *F, const E2EVal *V, const E2ECall *c,
                                 double r, int mode) {
  uint64_t h = e2e_fnv(0xCBF29CE484222325ull, &r, sizeof r);
  for (int k = 0; k < F->np; k++) {
    const E2EDesc *d = &F->pd[k];
    size_t es = d->kind == E2E_IARR ? d->esize : e2e_es(d, 0);
    size_t bytes = (size_t)(V[k].len > 0 ? V[k].len : 0) * es;
    if (d->written && c->a.p[k]) h = e2e_fnv(h, c->a.p[k], bytes);
    if (mode == E2E_VJP && c->a.b[k]) h = e2e_fnv(h, c->a.b[k], bytes);
    if (mode == E2E_JVP && d->written && c->a.d[k]) h = e2e_fnv(h, c->a.d[k], bytes);
  }
  if (mode == E2E_JVP && c->a.rdot) h = e2e_fnv(h, c->a.rdot, F->ret_f32 ? sizeof(float) : sizeof(double));
  fprintf(e2e_hash_file(), "HASH %s %s %016llx\n", e2e_ctx, call, (unsigned long long)h);
}
static inline void e2e_hash_one(const E2EFunc *F, const E2EVal *V, E2ERng *rng) {
  E2ECall c;
  e2e_args(F, V, 0, &c);
  e2e_hash_call("f", F, V, &c, F->call(E2E_PRIMAL, &c.a), E2E_PRIMAL);
  e2e_release(&c);
  double *S[E2E_MAXP] = {0}, rbar = e2e_round(F->ret_f32, e2e_unif(rng, 0.5, 1.5));
  e2e_args(F, V, 0, &c);
  for (int k = 0; k < F->np; k++) {
    if (!e2e_isactive(&F->pd[k])) continue;
    S[k] = e2e_random(rng, V[k].len, F->pd[k].f32);
    c.a.b[k] = e2e_filled(&c, S[k], V[k].len, e2e_es(&F->pd[k], 0));
  }
  c.a.rbar = rbar;
  e2e_hash_call("f_vjp", F, V, &c, F->call(E2E_VJP, &c.a), E2E_VJP);
  e2e_release(&c);
  e2e_args(F, V, 0, &c);
  for (int k = 0; k < F->np; k++) {
    if (!S[k]) continue;
    if (F->pd[k].kind == E2E_FSCAL) c.a.sd[k] = S[k][0];
    else c.a.d[k] = e2e_filled(&c, S[k], V[k].len, e2e_es(&F->pd[k], 0));
  }
  if (F->ret == 1) c.a.rdot = e2e_buf(&c, 1, F->ret_f32 ? sizeof(float) : sizeof(double));
  e2e_hash_call("f_jvp", F, V, &c, F->call(E2E_JVP, &c.a), E2E_JVP);
  e2e_release(&c);
  e2e_free_all(S, F->np);
}

static inline void e2e_run_func(const E2EFunc *F) {
  for (int ci = 0; ci < F->ncases; ci++) {
    const long *sz = F->cases + (size_t)ci * F->nvars;
    for (int s = 0; s < F->nseeds; s++) {
      int len = e2e_nranks > 1 ? snprintf(e2e_ctx, sizeof e2e_ctx, "%s rank=%d/%d", F->name,
                                          e2e_rank, e2e_nranks)
                               : snprintf(e2e_ctx, sizeof e2e_ctx, "%s", F->name);
      for (int v = 0; v < F->nvars && len < 200; v++)
        len += snprintf(e2e_ctx + len, sizeof e2e_ctx - len, " %s=%ld", F->vars[v], sz[v]);
      snprintf(e2e_ctx + len, sizeof e2e_ctx - len, " seed=%d", s);
      E2ERng rng = {0x5EEDull * 1000003u + (uint64_t)ci * 7919u + (uint64_t)s * 104729u +
                    (uint64_t)e2e_rank * 15485863u};
      E2EVal V[E2E_MAXP];
      memset(V, 0, sizeof V);
      F->setup(V, sz, &rng);
      if (getenv("E2E_HASH")) e2e_hash_one(F, V, &rng);
      else e2e_one(F, V, &rng);
      e2e_vfree(F, V);
    }
  }
}

static inline int e2e_finish(void) {
  if (e2e_nranks > 1) printf("rank %d of %d: ", e2e_rank, e2e_nranks);
  printf("%d checks, %d failed\n", e2e_ncheck, e2e_nfail);
  e2e_done();
  return e2e_nfail ? 1 : 0;
}

#endif
