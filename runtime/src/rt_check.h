// ---- adsoac --emit=check: the validation driver (embedded from runtime/src/rt_check.h) ----
// For each marked function f: random inputs of the sizes given on the command line; f against
// the original sequential C (f_ref); f_vjp's adjoints and f_jvp's tangents against central
// finite differences of f_ref; <y_dot, y_bar> == <x_dot, x_bar>.  Exit status 0 when every
// check passes, 1 when one fails, 2 for a usage error.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { ADSOAC_CK_INT, ADSOAC_CK_FLOAT, ADSOAC_CK_DOUBLE } AdsoacCkElem;

typedef struct {
  const char *name;
  int array;          // a pointer parameter
  AdsoacCkElem elem;  // its (element) type: an integer, float or double
  int isize, isigned; // integers: the size in bytes, signedness
  int written;        // a pointer f writes
  int active;         // differentiated (f_vjp and f_jvp take its adjoint and tangent)
} AdsoacCkParam;

typedef struct {
  const char *name, *proto;
  int nparams;
  const AdsoacCkParam *p;
  AdsoacCkElem ret;
  int has_ret; // a float or double result (differentiated); integer results are compared
  int int_ret;
  double (*ref)(void *const *a);
  double (*f)(void *const *a);
  double (*vjp)(void *const *a, void *const *bar, double ret_bar);
  double (*jvp)(void *const *a, void *const *dot, double *ret_dot);
} AdsoacCkFn;

// ---- the command line: NAME=VALUE ----
static int adsoac_ck_argc;
static char **adsoac_ck_argv;
static int adsoac_ck_fails;
static const char *adsoac_ck_cur; // the function being checked

// The check's own options: NAME=VALUE
static const char *adsoac_ck_opt(const char *name) {
  size_t n = strlen(name);
  for (int i = 1; i < adsoac_ck_argc; i++)
    if (!strncmp(adsoac_ck_argv[i], name, n) && adsoac_ck_argv[i][n] == '=')
      return adsoac_ck_argv[i] + n + 1;
  return NULL;
}

// A parameter's value: FUNCTION.NAME=VALUE for that function, else NAME=VALUE, but not where
// NAME is an option's (a parameter named h is given as FUNCTION.h=...: h= is the step)
static const char *adsoac_ck_arg(const char *name) {
  static const char *const opts[] = {"h", "fd", "seed", "rtol", "atol", "only", NULL};
  size_t n = strlen(name), f = adsoac_ck_cur ? strlen(adsoac_ck_cur) : 0;
  for (int i = 1; i < adsoac_ck_argc && f; i++) {
    const char *a = adsoac_ck_argv[i];
    if (!strncmp(a, adsoac_ck_cur, f) && a[f] == '.' && !strncmp(a + f + 1, name, n) && a[f + 1 + n] == '=')
      return a + f + 2 + n;
  }
  for (int k = 0; opts[k]; k++)
    if (!strcmp(name, opts[k])) return NULL;
  return adsoac_ck_opt(name);
}

static double adsoac_ck_num(const char *name, double dflt) {
  const char *s = adsoac_ck_opt(name);
  return s ? atof(s) : dflt;
}

// ---- sizes: integer expressions of the integer parameters (+ - * / % and parentheses) ----
typedef struct {
  const char *s;
  const char *const *names;
  const long *vals;
  int n;
  int bad;
} AdsoacCkExpr;

static long adsoac_ck_sum(AdsoacCkExpr *x);

static void adsoac_ck_space(AdsoacCkExpr *x) {
  while (*x->s == ' ') x->s++;
}

static long adsoac_ck_atom(AdsoacCkExpr *x) {
  adsoac_ck_space(x);
  if (*x->s == '(') {
    x->s++;
    long v = adsoac_ck_sum(x);
    adsoac_ck_space(x);
    if (*x->s == ')') x->s++; else x->bad = 1;
    return v;
  }
  if (*x->s == '-') {
    x->s++;
    return -adsoac_ck_atom(x);
  }
  if (*x->s >= '0' && *x->s <= '9') return strtol(x->s, (char **)&x->s, 10);
  const char *b = x->s;
  while ((*x->s >= 'a' && *x->s <= 'z') || (*x->s >= 'A' && *x->s <= 'Z') || *x->s == '_' ||
         (*x->s >= '0' && *x->s <= '9'))
    x->s++;
  for (int i = 0; i < x->n; i++)
    if (strlen(x->names[i]) == (size_t)(x->s - b) && !strncmp(x->names[i], b, (size_t)(x->s - b)))
      return x->vals[i];
  x->bad = 1;
  return 0;
}

static long adsoac_ck_prod(AdsoacCkExpr *x) {
  long v = adsoac_ck_atom(x);
  for (;;) {
    adsoac_ck_space(x);
    char op = *x->s;
    if (op != '*' && op != '/' && op != '%') return v;
    x->s++;
    long r = adsoac_ck_atom(x);
    if (op != '*' && r == 0) {
      x->bad = 1;
      return 0;
    }
    v = op == '*' ? v * r : op == '/' ? v / r : v % r;
  }
}

static long adsoac_ck_sum(AdsoacCkExpr *x) {
  long v = adsoac_ck_prod(x);
  for (;;) {
    adsoac_ck_space(x);
    char op = *x->s;
    if (op != '+' && op != '-') return v;
    x->s++;
    long r = adsoac_ck_prod(x);
    v = op == '+' ? v + r : v - r;
  }
}

// ---- random numbers (splitmix64: the same on every machine) ----
static uint64_t adsoac_ck_rng;

static double adsoac_ck_uniform(double lo, double hi) {
  uint64_t z = (adsoac_ck_rng += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  z ^= z >> 31;
  return lo + (hi - lo) * (double)(z >> 11) / 9007199254740992.0;
}

// ---- values of any parameter type, through double ----
static size_t adsoac_ck_size(const AdsoacCkParam *p) {
  return p->elem == ADSOAC_CK_INT ? (size_t)p->isize : p->elem == ADSOAC_CK_FLOAT ? sizeof(float) : sizeof(double);
}

static double adsoac_ck_get(const AdsoacCkParam *p, const void *base, long i) {
  const char *at = (const char *)base + (size_t)i * adsoac_ck_size(p);
  if (p->elem == ADSOAC_CK_FLOAT) { float v; memcpy(&v, at, sizeof v); return v; }
  if (p->elem == ADSOAC_CK_DOUBLE) { double v; memcpy(&v, at, sizeof v); return v; }
  int64_t v = 0;
  switch (p->isize) {
  case 1: { int8_t x; memcpy(&x, at, 1); v = p->isigned ? (int64_t)x : (int64_t)(uint8_t)x; break; }
  case 2: { int16_t x; memcpy(&x, at, 2); v = p->isigned ? (int64_t)x : (int64_t)(uint16_t)x; break; }
  case 4: { int32_t x; memcpy(&x, at, 4); v = p->isigned ? (int64_t)x : (int64_t)(uint32_t)x; break; }
  default: memcpy(&v, at, 8); break;
  }
  return (double)v;
}

static void adsoac_ck_set(const AdsoacCkParam *p, void *base, long i, double v) {
  char *at = (char *)base + (size_t)i * adsoac_ck_size(p);
  if (p->elem == ADSOAC_CK_FLOAT) { float x = (float)v; memcpy(at, &x, sizeof x); return; }
  if (p->elem == ADSOAC_CK_DOUBLE) { memcpy(at, &v, sizeof v); return; }
  int64_t x = (int64_t)v;
  switch (p->isize) {
  case 1: { int8_t y = (int8_t)x; memcpy(at, &y, 1); break; }
  case 2: { int16_t y = (int16_t)x; memcpy(at, &y, 2); break; }
  case 4: { int32_t y = (int32_t)x; memcpy(at, &y, 4); break; }
  default: memcpy(at, &x, 8); break;
  }
}

// ---- one function ----
typedef struct {
  const AdsoacCkFn *cf;
  long *len;             // elements of each parameter (1 for a scalar)
  void **init;           // the inputs as drawn
  void **work;           // what a call gets (copies of init)
  double *seed;          // per parameter, the seeds of its elements (written float arrays)
  double ret_bar;
  int fp;                // float precision anywhere: float tolerances
} AdsoacCk;

static void *adsoac_ck_alloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p) {
    fprintf(stderr, "adsoac check: out of memory\n");
    exit(2);
  }
  return p;
}

static void adsoac_ck_reset(AdsoacCk *c) {
  for (int k = 0; k < c->cf->nparams; k++)
    memcpy(c->work[k], c->init[k], (size_t)c->len[k] * adsoac_ck_size(&c->cf->p[k]));
}

static int adsoac_ck_float_param(const AdsoacCkParam *p) {
  return p->elem != ADSOAC_CK_INT;
}

// L = sum of seed * (final contents of written float arrays) + ret_bar * result, of f_ref
// run on work (reset from init first unless told).
static double adsoac_ck_loss(AdsoacCk *c) {
  const AdsoacCkFn *cf = c->cf;
  double r = cf->ref(c->work), L = cf->has_ret ? c->ret_bar * r : 0.0;
  long s = 0;
  for (int k = 0; k < cf->nparams; k++) {
    const AdsoacCkParam *p = &cf->p[k];
    if (p->array && p->written && adsoac_ck_float_param(p))
      for (long i = 0; i < c->len[k]; i++) L += c->seed[s + i] * adsoac_ck_get(p, c->work[k], i);
    if (p->array && p->written && adsoac_ck_float_param(p)) s += c->len[k];
  }
  return L;
}

static double adsoac_ck_step(const AdsoacCk *c, double x) {
  double h = adsoac_ck_num("h", c->fp ? 1e-2 : 1e-6);
  return h * (fabs(x) > 1.0 ? fabs(x) : 1.0);
}

typedef struct {
  double worst, tol;
  long at;
  double got, want;
  long n;
} AdsoacCkErr;

// |got - want| <= rtol*|want| + atol*max(1, scale) + more (the rounding of a difference)
static void adsoac_ck_cmp2(AdsoacCkErr *e, double got, double want, double scale, double rtol,
                           double atol, double more, long i) {
  double err = fabs(got - want), tol = rtol * fabs(want) + atol * (scale > 1.0 ? scale : 1.0) + more;
  e->n++;
  if (!(err <= tol) && (e->at < 0 || !(e->worst - e->tol >= err - tol))) {
    e->worst = err, e->tol = tol, e->at = i, e->got = got, e->want = want;
  }
}

static void adsoac_ck_cmp(AdsoacCkErr *e, double got, double want, double scale, double rtol,
                          double atol, long i) {
  adsoac_ck_cmp2(e, got, want, scale, rtol, atol, 0.0, i);
}

static void adsoac_ck_report(const char *what, const char *name, const char *suffix,
                             const AdsoacCkErr *e, int is_array, const char *against) {
  if (e->at < 0) return;
  adsoac_ck_fails++;
  printf("  FAIL %-7s %s%s", what, name, suffix);
  if (is_array) printf("[%ld]", e->at);
  printf(": got %.10g, expected %.10g (%s; tolerance %.3g)\n", e->got, e->want, against, e->tol);
}

static void adsoac_ck_fn(const AdsoacCkFn *cf) {
  int np = cf->nparams;
  adsoac_ck_cur = cf->name;
  AdsoacCk c = {.cf = cf};
  c.len = adsoac_ck_alloc(sizeof(long) * (size_t)(np + 1));
  c.init = adsoac_ck_alloc(sizeof(void *) * (size_t)(np + 1));
  c.work = adsoac_ck_alloc(sizeof(void *) * (size_t)(np + 1));
  const char **inames = adsoac_ck_alloc(sizeof(char *) * (size_t)(np + 1));
  long *ivals = adsoac_ck_alloc(sizeof(long) * (size_t)(np + 1));
  int ni = 0, usage = 0;
  double lo[64], hi[64];
  const char *fill[64] = {0}; // NAME=LEN@EXPR: element i is EXPR
  for (int k = 0; k < np && k < 64; k++) { // the integer parameters first: the sizes
    const AdsoacCkParam *p = &cf->p[k];
    if (p->array || p->elem != ADSOAC_CK_INT) continue;
    const char *s = adsoac_ck_arg(p->name);
    AdsoacCkExpr x = {s ? s : "8", inames, ivals, ni, 0};
    long v = adsoac_ck_sum(&x);
    if (x.bad || *x.s) {
      printf("\nadsoac check: error: %s=%s: not an integer expression of the integer "
                      "parameters before it\n", p->name, s);
      usage = 1;
    }
    inames[ni] = p->name;
    ivals[ni++] = v;
  }
  printf("adsoac check: %s\n  %s\n ", cf->name, cf->proto);
  for (int k = 0; k < np && k < 64; k++) {
    const AdsoacCkParam *p = &cf->p[k];
    const char *s = adsoac_ck_arg(p->name);
    lo[k] = -1.0, hi[k] = 1.0;
    c.len[k] = 1;
    if (!p->array && p->elem == ADSOAC_CK_INT) {
      for (int i = 0; i < ni; i++)
        if (inames[i] == p->name) printf(" %s=%ld", p->name, ivals[i]);
      continue;
    }
    const char *range = s;
    if (p->array) { // LEN[:LO:HI]
      if (!s) {
        printf("\nadsoac check: error: give the length of %s: %s=LEN%s (LEN an expression of "
                        "the integer parameters)\n", p->name, p->name,
                p->elem == ADSOAC_CK_INT ? ":LO:HI" : "[:LO:HI]");
        usage = 1;
        continue;
      }
      AdsoacCkExpr x = {s, inames, ivals, ni, 0};
      c.len[k] = adsoac_ck_sum(&x);
      if (*x.s == '@') fill[k] = x.s + 1;
      if (x.bad || (*x.s && *x.s != ':' && *x.s != '@') || c.len[k] < 0) {
        printf("\nadsoac check: error: %s=%s: the length is not a nonnegative integer "
                        "expression of the integer parameters\n", p->name, s);
        usage = 1;
      }
      range = *x.s == ':' ? x.s + 1 : NULL;
      if (p->elem == ADSOAC_CK_INT && !range && !fill[k]) {
        printf("\nadsoac check: error: give the values of the integer array %s: %s=LEN:LO:HI "
               "(integers in [LO, HI)) or %s=LEN@EXPR (element i is EXPR, an expression of i "
               "and the integer parameters)\n", p->name, p->name, p->name);
        usage = 1;
      }
      printf(" %s[%ld]", p->name, c.len[k]);
    } else {
      printf(" %s", p->name);
    }
    if (range) { // LO:HI, or one value (a scalar)
      char *end;
      lo[k] = hi[k] = strtod(range, &end);
      if (*end == ':') hi[k] = strtod(end + 1, &end);
      if (*end || hi[k] < lo[k]) {
        printf("\nadsoac check: error: %s: bad range '%s' (LO:HI)\n", p->name, range);
        usage = 1;
      }
    }
  }
  printf(", seed %lu\n", (unsigned long)adsoac_ck_num("seed", 1));
  fflush(stdout);
  if (usage || np > 64) {
    fprintf(stderr, "usage: ./check [NAME=VALUE ...] [seed=S] [fd=N] [h=H] [rtol=R] [atol=A]\n"
                    "  [only=FUNCTION]: an integer parameter: NAME=EXPR (default 8); an array:\n"
                    "  NAME=LEN[:LO:HI] or NAME=LEN@EXPR (element i); a float scalar: NAME=VALUE\n"
                    "  or NAME=LO:HI (default -1:1);\n"
                    "  FUNCTION.NAME=VALUE for one function's parameter only\n");
    exit(2);
  }
  // the inputs
  adsoac_ck_rng = (uint64_t)adsoac_ck_num("seed", 1) * 0x9E3779B97F4A7C15u + 1;
  long nseed = 0, nact = 0;
  for (int k = 0; k < np; k++) {
    const AdsoacCkParam *p = &cf->p[k];
    size_t bytes = (size_t)c.len[k] * adsoac_ck_size(p);
    c.init[k] = adsoac_ck_alloc(bytes + 8);
    c.work[k] = adsoac_ck_alloc(bytes + 8);
    c.fp |= p->elem == ADSOAC_CK_FLOAT;
    int ni2 = 0;
    for (int i = 0; i < ni; i++) ni2 += inames[i] == p->name;
    if (ni2) {
      for (int i = 0; i < ni; i++)
        if (inames[i] == p->name) adsoac_ck_set(p, c.init[k], 0, (double)ivals[i]);
      continue;
    }
    for (long i = 0; i < c.len[k]; i++) {
      double v = adsoac_ck_uniform(lo[k], hi[k]);
      if (fill[k]) { // (the integer parameters, then i)
        inames[ni] = "i";
        ivals[ni] = i;
        AdsoacCkExpr x = {fill[k], inames, ivals, ni + 1, 0};
        v = (double)adsoac_ck_sum(&x);
        if (x.bad || *x.s) {
          printf("adsoac check: error: %s: '%s' is not an integer expression of i and the "
                 "integer parameters\n", p->name, fill[k]);
          exit(2);
        }
      }
      adsoac_ck_set(p, c.init[k], i, p->elem == ADSOAC_CK_INT ? floor(v) : v);
    }
    if (p->array && p->written && adsoac_ck_float_param(p)) nseed += c.len[k];
    if (p->active) nact += c.len[k];
  }
  c.fp |= cf->ret == ADSOAC_CK_FLOAT;
  double rtol = adsoac_ck_num("rtol", c.fp ? 2e-2 : 1e-5), atol = adsoac_ck_num("atol", c.fp ? 2e-3 : 1e-7);
  double prtol = c.fp ? 1e-4 : 1e-10, eps = c.fp ? 6e-8 : 1.2e-16;
  long fdmax = (long)adsoac_ck_num("fd", 100);
  c.seed = adsoac_ck_alloc(sizeof(double) * (size_t)(nseed + 1));
  for (long i = 0; i < nseed; i++) c.seed[i] = adsoac_ck_uniform(-1, 1);
  c.ret_bar = cf->has_ret ? adsoac_ck_uniform(-1, 1) : 0.0;

  // ---- primal: f against f_ref ----
  void **out = adsoac_ck_alloc(sizeof(void *) * (size_t)(np + 1));
  for (int k = 0; k < np; k++) out[k] = adsoac_ck_alloc((size_t)c.len[k] * adsoac_ck_size(&cf->p[k]) + 8);
  adsoac_ck_reset(&c);
  double rref = cf->ref(c.work);
  for (int k = 0; k < np; k++) memcpy(out[k], c.work[k], (size_t)c.len[k] * adsoac_ck_size(&cf->p[k]));
  adsoac_ck_reset(&c);
  double rf = cf->f(c.work);
  int failed = adsoac_ck_fails;
  for (int k = 0; k < np; k++) {
    const AdsoacCkParam *p = &cf->p[k];
    if (!p->array || !p->written) continue;
    AdsoacCkErr e = {0, 0, -1, 0, 0, 0};
    double scale = 0;
    for (long i = 0; i < c.len[k]; i++) scale = fmax(scale, fabs(adsoac_ck_get(p, out[k], i)));
    for (long i = 0; i < c.len[k]; i++)
      adsoac_ck_cmp(&e, adsoac_ck_get(p, c.work[k], i), adsoac_ck_get(p, out[k], i), scale,
                    p->elem == ADSOAC_CK_INT ? 0 : prtol, p->elem == ADSOAC_CK_INT ? 0 : prtol, i);
    adsoac_ck_report("primal", p->name, "", &e, 1, "the original C");
  }
  if (cf->has_ret || cf->int_ret) {
    AdsoacCkErr e = {0, 0, -1, 0, 0, 0};
    adsoac_ck_cmp(&e, rf, rref, fabs(rref), cf->int_ret ? 0 : prtol, cf->int_ret ? 0 : prtol, 0);
    adsoac_ck_report("primal", "return value", "", &e, 0, "the original C");
  }
  if (adsoac_ck_fails == failed) printf("  PASS primal  (against the original C)\n");

  // ---- vjp: adjoints against central differences of L ----
  void **bar = adsoac_ck_alloc(sizeof(void *) * (size_t)(np + 1));
  void **bar0 = adsoac_ck_alloc(sizeof(void *) * (size_t)(np + 1));
  for (int k = 0, s = 0; k < np; k++) {
    const AdsoacCkParam *p = &cf->p[k];
    size_t bytes = (size_t)c.len[k] * adsoac_ck_size(p);
    bar[k] = adsoac_ck_alloc(bytes + 8);
    bar0[k] = adsoac_ck_alloc(bytes + 8);
    if (!p->active) continue;
    for (long i = 0; i < c.len[k]; i++) // written: the seed; read: a value to accumulate onto
      adsoac_ck_set(p, bar0[k], i, p->array && p->written ? c.seed[s + i] : adsoac_ck_uniform(-1, 1));
    if (p->array && p->written) s += (int)c.len[k];
    memcpy(bar[k], bar0[k], bytes);
  }
  adsoac_ck_reset(&c);
  double rv = cf->vjp(c.work, bar, c.ret_bar);
  failed = adsoac_ck_fails;
  for (int k = 0; k < np; k++) { // f_vjp writes what f writes
    const AdsoacCkParam *p = &cf->p[k];
    if (!p->array || !p->written) continue;
    AdsoacCkErr e = {0, 0, -1, 0, 0, 0};
    for (long i = 0; i < c.len[k]; i++)
      adsoac_ck_cmp(&e, adsoac_ck_get(p, c.work[k], i), adsoac_ck_get(p, out[k], i), 0,
                    p->elem == ADSOAC_CK_INT ? 0 : prtol, p->elem == ADSOAC_CK_INT ? 0 : prtol, i);
    adsoac_ck_report("vjp", p->name, " (output)", &e, 1, "the original C");
  }
  if (cf->has_ret) {
    AdsoacCkErr e = {0, 0, -1, 0, 0, 0};
    adsoac_ck_cmp(&e, rv, rref, fabs(rref), prtol, prtol, 0);
    adsoac_ck_report("vjp", "return value", "", &e, 0, "the original C");
  }
  long checked = 0;
  for (int k = 0; k < np; k++) {
    const AdsoacCkParam *p = &cf->p[k];
    if (!p->active) continue;
    long n = c.len[k], stride = n > fdmax && fdmax > 0 ? (n + fdmax - 1) / fdmax : 1;
    double *fd = adsoac_ck_alloc(sizeof(double) * (size_t)(n + 1)), scale = 0;
    double *rnd = adsoac_ck_alloc(sizeof(double) * (size_t)(n + 1)); // rounding of each difference
    for (long i = 0; i < n; i += stride) {
      double x = adsoac_ck_get(p, c.init[k], i), h = adsoac_ck_step(&c, x);
      adsoac_ck_set(p, c.init[k], i, x + h);
      double xp = adsoac_ck_get(p, c.init[k], i);
      adsoac_ck_reset(&c);
      double lp = adsoac_ck_loss(&c);
      adsoac_ck_set(p, c.init[k], i, x - h);
      double xm = adsoac_ck_get(p, c.init[k], i);
      adsoac_ck_reset(&c);
      double lm = adsoac_ck_loss(&c);
      adsoac_ck_set(p, c.init[k], i, x);
      fd[i] = (lp - lm) / (xp - xm);
      rnd[i] = 4 * eps * (fabs(lp) + fabs(lm)) / fabs(xp - xm);
      scale = fmax(scale, fabs(fd[i]));
    }
    AdsoacCkErr e = {0, 0, -1, 0, 0, 0};
    for (long i = 0; i < n; i += stride) {
      double got = adsoac_ck_get(p, bar[k], i);
      if (!(p->array && p->written)) got -= adsoac_ck_get(p, bar0[k], i); // (accumulated)
      adsoac_ck_cmp2(&e, got, fd[i], scale, rtol, atol, rnd[i], i);
      checked++;
    }
    adsoac_ck_report("vjp", p->name, "_bar", &e, p->array, "central differences of the original C");
    free(fd), free(rnd);
  }
  if (adsoac_ck_fails == failed)
    printf("  PASS vjp     (%ld adjoint elements against central differences)\n", checked);

  // ---- jvp: tangents along a random direction, and <y_dot, y_bar> == <x_dot, x_bar> ----
  void **dot = adsoac_ck_alloc(sizeof(void *) * (size_t)(np + 1));
  void **dir = adsoac_ck_alloc(sizeof(void *) * (size_t)(np + 1));
  for (int k = 0; k < np; k++) {
    const AdsoacCkParam *p = &cf->p[k];
    size_t bytes = (size_t)c.len[k] * adsoac_ck_size(p);
    dot[k] = adsoac_ck_alloc(bytes + 8);
    dir[k] = adsoac_ck_alloc(bytes + 8);
    if (!p->active) continue;
    for (long i = 0; i < c.len[k]; i++) adsoac_ck_set(p, dir[k], i, adsoac_ck_uniform(-1, 1));
    memcpy(dot[k], dir[k], bytes);
  }
  double rdot = 0;
  adsoac_ck_reset(&c);
  double rj = cf->jvp(c.work, dot, &rdot);
  failed = adsoac_ck_fails;
  if (cf->has_ret) {
    AdsoacCkErr e = {0, 0, -1, 0, 0, 0};
    adsoac_ck_cmp(&e, rj, rref, fabs(rref), prtol, prtol, 0);
    adsoac_ck_report("jvp", "return value", "", &e, 0, "the original C");
  }
  // outputs at init + t*dir and init - t*dir (one step for all the inputs)
  double t = adsoac_ck_num("h", c.fp ? 1e-2 : 1e-6);
  void **up = adsoac_ck_alloc(sizeof(void *) * (size_t)(np + 1));
  double rup = 0, rdn = 0;
  for (int side = 0; side < 2; side++) {
    for (int k = 0; k < np; k++) {
      const AdsoacCkParam *p = &cf->p[k];
      memcpy(c.work[k], c.init[k], (size_t)c.len[k] * adsoac_ck_size(p));
      if (p->active)
        for (long i = 0; i < c.len[k]; i++)
          adsoac_ck_set(p, c.work[k], i, adsoac_ck_get(p, c.init[k], i) +
                                             (side ? -t : t) * adsoac_ck_get(p, dir[k], i));
    }
    double r = cf->ref(c.work);
    if (!side) {
      rup = r;
      for (int k = 0; k < np; k++) {
        up[k] = adsoac_ck_alloc((size_t)c.len[k] * adsoac_ck_size(&cf->p[k]) + 8);
        memcpy(up[k], c.work[k], (size_t)c.len[k] * adsoac_ck_size(&cf->p[k]));
      }
    } else {
      rdn = r;
    }
  }
  double ydot_ybar = 0, xdot_xbar = 0, terms = 0;
  for (int k = 0, s = 0; k < np; k++) {
    const AdsoacCkParam *p = &cf->p[k];
    if (p->array && p->written && adsoac_ck_float_param(p)) {
      AdsoacCkErr e = {0, 0, -1, 0, 0, 0};
      double scale = 0;
      for (long i = 0; i < c.len[k]; i++)
        scale = fmax(scale, fabs((adsoac_ck_get(p, up[k], i) - adsoac_ck_get(p, c.work[k], i)) / (2 * t)));
      for (long i = 0; i < c.len[k]; i++) {
        double u = adsoac_ck_get(p, up[k], i), d = adsoac_ck_get(p, c.work[k], i);
        double fd = (u - d) / (2 * t), yd = p->active ? adsoac_ck_get(p, dot[k], i) : 0.0;
        adsoac_ck_cmp2(&e, yd, fd, scale, rtol, atol, 4 * eps * (fabs(u) + fabs(d)) / (2 * t), i);
        ydot_ybar += yd * c.seed[s + i];
        terms += fabs(yd * c.seed[s + i]);
      }
      s += (int)c.len[k];
      adsoac_ck_report("jvp", p->name, "_dot", &e, 1, "central differences of the original C");
    }
    if (p->active)
      for (long i = 0; i < c.len[k]; i++) {
        double xb = adsoac_ck_get(p, bar[k], i);
        if (!(p->array && p->written)) xb -= adsoac_ck_get(p, bar0[k], i);
        xdot_xbar += adsoac_ck_get(p, dir[k], i) * xb;
        terms += fabs(adsoac_ck_get(p, dir[k], i) * xb);
      }
  }
  if (cf->has_ret) {
    AdsoacCkErr e = {0, 0, -1, 0, 0, 0};
    double fd = (rup - rdn) / (2 * t);
    adsoac_ck_cmp2(&e, rdot, fd, fabs(fd), rtol, atol, 4 * eps * (fabs(rup) + fabs(rdn)) / (2 * t), 0);
    adsoac_ck_report("jvp", "ret", "_dot", &e, 0, "central differences of the original C");
    ydot_ybar += rdot * c.ret_bar;
    terms += fabs(rdot * c.ret_bar);
  }
  if (adsoac_ck_fails == failed) printf("  PASS jvp     (tangents against central differences)\n");
  if (fabs(ydot_ybar - xdot_xbar) <= (c.fp ? 1e-4 : 1e-10) * (terms > 1 ? terms : 1)) {
    printf("  PASS identity <y_dot, y_bar> = <x_dot, x_bar> (%.10g)\n", ydot_ybar);
  } else {
    adsoac_ck_fails++;
    printf("  FAIL identity <y_dot, y_bar> = %.10g, <x_dot, x_bar> = %.10g\n", ydot_ybar, xdot_xbar);
  }
  for (int k = 0; k < np; k++) {
    free(c.init[k]), free(c.work[k]), free(out[k]), free(bar[k]), free(bar0[k]);
    free(dot[k]), free(dir[k]), free(up[k]);
  }
  free(c.len), free(c.init), free(c.work), free(c.seed), free(out), free(bar), free(bar0);
  free(dot), free(dir), free(up), free(inames), free(ivals);
}

static int adsoac_ck_main(int argc, char **argv, const AdsoacCkFn *fns, int nfns) {
  adsoac_ck_argc = argc;
  adsoac_ck_argv = argv;
  const char *only = adsoac_ck_opt("only");
  for (int i = 0; i < nfns; i++)
    if (!only || !strcmp(only, fns[i].name)) adsoac_ck_fn(&fns[i]);
  printf("%s\n", adsoac_ck_fails ? "adsoac check: FAILED" : "adsoac check: all passed");
  return adsoac_ck_fails ? 1 : 0;
}
// ---- end of the validation driver ----
