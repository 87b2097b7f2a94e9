// analysis/affine.c: index expressions as polynomials, and the dependence test of a parallel
// loop: can two accesses of one array touch the same element in two different iterations
// (or in one)?
//
//   an index   coef_i * i + sum_j coef_j * j + rest, i the loop's index, j the indices of the
//              loops nested in its body; the coefficients and rest are polynomials over values
//              from outside the loop (n, h, m) with integer coefficients
//   a and b    meet where a(i1, j) - b(i2, j') = 0 has a solution in the loops' ranges with
//              i1 != i2 (each access has its own nested indices j, j'); never when
//     GCD      the gcd of the (integer) coefficients of the indices does not divide the
//              constant difference: y[2*i] and y[2*i + 1]
//     bounds   the difference keeps one sign over the ranges (Banerjee), taken apart into
//              i1 > i2 and i1 < i2 when both coefficients of i are equal, with d = i1 - i2 in
//              [1, T-1] (T = hi - lo): y[3*i + k] with k in [0, 3); y[i] and y[h + i] over
//              [0, h); y[i*m + j] with j in [0, m)
//   A symbolic sign (the coefficient m, the difference h - 1) is proved from what the loops
//   imply where two accesses run: T >= 2 (two iterations; one for i1 == i2), and every nested
//   loop whose index an access uses ran once at least (hi_j - lo_j >= 1): the polynomial is a
//   sum of those facts (and of products of two) times positive integers, plus a constant >= 0.
//   What is not proved is "maybe": the callers refuse a map, or use atomics.  Never wrong.
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

// Statements of an index expression followed (a longer one is unknown: the callers refuse a
// map or use atomics, never a wrong result; the walk recurses once per statement).
#define POLY_BUDGET 512

// ---- polynomials ----

static int mono_deg(const Mono *m) {
  int d = 0;
  while (d < POLY_DEG && m->v[d]) d++;
  return d;
}

static int mono_cmp(const Mono *a, const Mono *b) {
  for (int k = 0; k < POLY_DEG; k++)
    if (a->v[k] != b->v[k]) return a->v[k] > b->v[k] ? -1 : 1;
  return 0;
}

// p += c * (the monomial of the leaves v), one term per monomial.
static void poly_push(Poly *p, long long c, const Val *v) {
  if (!p->ok || !c) return;
  for (int k = 0; k < p->n; k++)
    if (!memcmp(p->t[k].v, v, sizeof p->t[k].v)) {
      if (__builtin_add_overflow(p->t[k].c, c, &p->t[k].c)) p->ok = false;
      return;
    }
  if (p->n == POLY_TERMS) {
    p->ok = false;
    return;
  }
  p->t[p->n].c = c;
  memcpy(p->t[p->n].v, v, sizeof p->t[p->n].v);
  p->n++;
}

// Zero terms dropped, the others in one order (so that equal polynomials compare equal).
static void poly_tidy(Poly *p) {
  int k = 0;
  for (int i = 0; i < p->n; i++)
    if (p->t[i].c) p->t[k++] = p->t[i];
  p->n = k;
  for (int i = 1; i < p->n; i++) // (insertion sort: a few terms)
    for (int j = i; j > 0 && mono_cmp(&p->t[j - 1], &p->t[j]) > 0; j--) {
      Mono t = p->t[j];
      p->t[j] = p->t[j - 1];
      p->t[j - 1] = t;
    }
}

static Poly poly_fail(void) {
  return (Poly){.ok = false};
}

static Poly poly_const(long long c) {
  Poly p = {.ok = true};
  Val none[POLY_DEG] = {0};
  poly_push(&p, c, none);
  return p;
}

static Poly poly_leaf(Val v) {
  Poly p = {.ok = true};
  Val m[POLY_DEG] = {v};
  poly_push(&p, 1, m);
  return p;
}

// a + k * b
static Poly poly_axpy(const Poly *a, long long k, const Poly *b) {
  if (!a->ok || !b->ok) return poly_fail();
  Poly p = *a;
  for (int i = 0; i < b->n; i++) {
    long long c;
    if (__builtin_mul_overflow(k, b->t[i].c, &c)) return poly_fail();
    poly_push(&p, c, b->t[i].v);
  }
  poly_tidy(&p);
  return p;
}

static Poly poly_add(const Poly *a, const Poly *b) {
  return poly_axpy(a, 1, b);
}

static Poly poly_sub(const Poly *a, const Poly *b) {
  return poly_axpy(a, -1, b);
}

static Poly poly_scale(const Poly *a, long long k) {
  Poly z = poly_const(0);
  return poly_axpy(&z, k, a);
}

static Poly poly_plus(const Poly *a, long long c) {
  Poly k = poly_const(c);
  return poly_add(a, &k);
}

static Poly poly_mul(const Poly *a, const Poly *b) {
  if (!a->ok || !b->ok) return poly_fail();
  Poly p = {.ok = true};
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++) {
      const Mono *x = &a->t[i], *y = &b->t[j];
      int dx = mono_deg(x), dy = mono_deg(y);
      if (dx + dy > POLY_DEG) return poly_fail();
      Val m[POLY_DEG] = {0};
      for (int s = 0, u = 0, w = 0; s < dx + dy; s++) // merge, largest first
        m[s] = u < dx && (w >= dy || x->v[u] >= y->v[w]) ? x->v[u++] : y->v[w++];
      long long c;
      if (__builtin_mul_overflow(x->c, y->c, &c)) return poly_fail();
      poly_push(&p, c, m);
    }
  poly_tidy(&p);
  return p;
}

static bool poly_is_const(const Poly *p, long long *c) {
  if (!p->ok) return false;
  *c = 0;
  for (int k = 0; k < p->n; k++) {
    if (mono_deg(&p->t[k])) return false;
    *c = p->t[k].c;
  }
  return true;
}

static bool poly_is_zero(const Poly *p) {
  return p->ok && p->n == 0;
}

static bool poly_eq(const Poly *a, const Poly *b) {
  if (!a->ok || !b->ok || a->n != b->n) return false;
  for (int k = 0; k < a->n; k++)
    if (a->t[k].c != b->t[k].c || mono_cmp(&a->t[k], &b->t[k])) return false;
  return true;
}

static Poly walk(const Fn *fn, Node *const *def, Val v, int *budget) {
  if (!v) return poly_fail();
  while (fn->vals[v].same) v = fn->vals[v].same; // (a loop's parameter that is its init)
  if (!ty_is_int(val_type(fn, v))) return poly_leaf(v); // (a float converted to an index)
  const Node *d = def[v];
  if (!d) return poly_leaf(v); // a parameter, a loop's index, a clause's value
  if (--*budget < 0) return poly_fail();
  switch (d->kind) {
  case IR_CONST: return poly_const(d->u.cst.i);
  case IR_CAST:
    if (!ty_is_int(val_type(fn, d->u.cast.a))) return poly_leaf(v);
    return walk(fn, def, d->u.cast.a, budget); // (integer widening; narrowing is C's wrap)
  case IR_UNOP:
    if (d->u.un.op != UN_NEG) return poly_leaf(v);
    {
      Poly a = walk(fn, def, d->u.un.a, budget);
      return poly_scale(&a, -1);
    }
  case IR_BINOP: {
    BinOp op = d->u.bin.op;
    if (op != BIN_ADD && op != BIN_SUB && op != BIN_MUL && op != BIN_SHL) return poly_leaf(v);
    Poly a = walk(fn, def, d->u.bin.a, budget);
    if (op == BIN_SHL) { // a << k, k a constant: a * 2^k
      const Node *k = def[d->u.bin.b];
      if (!k || k->kind != IR_CONST || k->u.cst.i < 0 || k->u.cst.i > 62) return poly_leaf(v);
      return poly_scale(&a, 1LL << k->u.cst.i);
    }
    Poly b = walk(fn, def, d->u.bin.b, budget);
    return op == BIN_ADD ? poly_add(&a, &b) : op == BIN_SUB ? poly_sub(&a, &b) : poly_mul(&a, &b);
  }
  case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF:
  case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL:
  case IR_RETURN:
    return poly_leaf(v);
  }
  UNREACHABLE();
}

Poly poly_of(const Fn *fn, Node *const *def, Val v) {
  int budget = POLY_BUDGET;
  return walk(fn, def, v, &budget);
}

// ---- proving signs ----

// What holds where two accesses run: polynomials >= 0.
#define MAX_FACTS 8
typedef struct {
  int n;
  Poly f[MAX_FACTS];
} Facts;

static void fact_add(Facts *fs, Poly p) {
  if (p.ok && fs->n < MAX_FACTS) fs->f[fs->n++] = p;
}

static int poly_deg(const Poly *p) {
  int d = 0;
  for (int k = 0; k < p->n; k++)
    if (mono_deg(&p->t[k]) > d) d = mono_deg(&p->t[k]);
  return d;
}

// The coefficient of monomial m in p.
static long long coef_of(const Poly *p, const Mono *m) {
  for (int k = 0; k < p->n; k++)
    if (!mono_cmp(&p->t[k], m)) return p->t[k].c;
  return 0;
}

// p >= 0: p = sum of k * (a fact, or a product of two) with k > 0, plus a constant >= 0,
// found term by term from the highest degree down (a greedy search: a proof when it ends in a
// constant >= 0, otherwise "not shown").
static bool prove_nonneg(Poly p, const Facts *fs) {
  for (int step = 0; step < 32 && p.ok; step++) {
    int best = -1;
    for (int k = 0; k < p.n; k++)
      if (mono_deg(&p.t[k]) && (best < 0 || mono_deg(&p.t[k]) > mono_deg(&p.t[best]))) best = k;
    if (best < 0) { // a constant
      long long c;
      return poly_is_const(&p, &c) && c >= 0;
    }
    const Mono *m = &p.t[best];
    int deg = mono_deg(m);
    bool used = false;
    for (int a = 0; a < fs->n && !used; a++)
      for (int b = a - 1; b < fs->n && !used; b++) { // b == a - 1: the fact alone
        Poly g = b < a ? fs->f[a] : poly_mul(&fs->f[a], &fs->f[b]);
        long long c = g.ok ? coef_of(&g, m) : 0;
        if (!c || poly_deg(&g) != deg || m->c == LLONG_MIN || m->c % c || m->c / c <= 0) continue;
        p = poly_axpy(&p, -(m->c / c), &g);
        used = true;
      }
    if (!used) return false;
  }
  return false;
}

// ---- the loop ----

static WalkNext count_loop(Node *n, void *ctx) {
  if (n->kind == IR_LOOP || n->kind == IR_PAR) ++*(int *)ctx;
  return WALK_INTO;
}

static WalkNext note_loop(Node *n, void *ctx) {
  IndexLoop *lp = ctx;
  if (n->kind == IR_LOOP || n->kind == IR_PAR) lp->loops[lp->nloops++] = n;
  return WALK_INTO;
}

void index_loop(IndexLoop *lp, Arena *a, const Fn *fn, Node *const *def,
                const unsigned char *inside, const Block *body, Val i, Val lo, Val hi) {
  int n = 0;
  if (!lo || !hi || !ty_is_int(val_type(fn, lo)) || !ty_is_int(val_type(fn, hi)))
    lo = hi = 0; // (j <= hi - 1 holds for integers only)
  ir_walk(body, &(Walker){.pre = count_loop, .ctx = &n});
  *lp = (IndexLoop){fn, def, inside, i, lo, hi, ARENA_ARRAY(a, const Node *, n + 1), 0, a,
                    ARENA_ARRAY(a, struct Lin *, fn->nvals), fn->nvals};
  ir_walk(body, &(Walker){.pre = note_loop, .ctx = lp});
}

static const Node *nested_loop(const IndexLoop *lp, Val v) {
  for (int k = 0; k < lp->nloops; k++) {
    const Node *n = lp->loops[k];
    if ((n->kind == IR_PAR ? n->u.par.idx : n->u.loop.idx) == v) return n;
  }
  return NULL;
}

// An index as coef[0] * i + sum coef[k] * var[k] (k >= 1: nested indices) + rest.
#define LIN_VARS 8
typedef struct Lin {
  bool ok; // (the memo's entry: false, not affine)
  int n;
  Val var[LIN_VARS];
  const Node *loop[LIN_VARS];
  Poly coef[LIN_VARS];
  Poly rest;
} Lin;

static bool lin_walk(const IndexLoop *lp, Val idx, Lin *out) {
  Poly p = poly_of(lp->fn, lp->def, idx);
  if (!p.ok) return false;
  out->n = 1;
  out->var[0] = lp->i;
  out->loop[0] = NULL;
  out->coef[0] = out->rest = poly_const(0);
  for (int t = 0; t < p.n; t++) {
    const Mono *m = &p.t[t];
    Val rest[POLY_DEG] = {0};
    int which = -1, nr = 0;
    for (int k = 0; k < mono_deg(m); k++) {
      Val v = m->v[k];
      const Node *loop = v == lp->i ? NULL : lp->inside[v] ? nested_loop(lp, v) : NULL;
      if (v != lp->i && !loop) { // the same in every iteration, or not an index's form
        if (lp->inside[v] && !index_invariant(lp->def, lp->inside, v, lp->i)) return false;
        rest[nr++] = v;
        continue;
      }
      if (which >= 0) return false; // i*i, i*j: not affine
      which = 0;
      while (which < out->n && out->var[which] != v) which++;
      if (which == out->n) {
        if (out->n == LIN_VARS) return false;
        out->var[out->n] = v;
        out->loop[out->n] = loop;
        out->coef[out->n++] = poly_const(0);
      }
    }
    Poly *dst = which < 0 ? &out->rest : &out->coef[which];
    poly_push(dst, m->c, rest);
    poly_tidy(dst);
    if (!dst->ok) return false;
  }
  return true;
}

// idx taken apart, once per value (map_dependence asks about every pair of accesses); buf
// holds it where the memo cannot.  NULL: not affine.
static const Lin *lin_of(const IndexLoop *lp, Val idx, Lin *buf) {
  if (!idx || idx >= (Val)lp->nlin) return (buf->ok = lin_walk(lp, idx, buf)) ? buf : NULL;
  if (!lp->lin[idx]) {
    Lin *l = ARENA_NEW(lp->a, Lin);
    l->ok = lin_walk(lp, idx, l);
    lp->lin[idx] = l;
  }
  return lp->lin[idx]->ok ? lp->lin[idx] : NULL;
}

// v from outside the loop's body (a bound of a nested loop): a polynomial of such values.
static Poly invariant_poly(const IndexLoop *lp, Val v) {
  Lin buf;
  const Lin *l = lin_of(lp, v, &buf);
  if (!l) return poly_fail();
  for (int k = 0; k < l->n; k++)
    if (!poly_is_zero(&l->coef[k])) return poly_fail();
  return l->rest;
}

// coef * x for x in [lo, hi] (a nonempty range): a term of the difference of two indices.
typedef struct {
  Poly coef, lo, hi;
} Term;

// The least and the greatest value of the sum of the terms plus rest over their ranges; false
// when the sign of a coefficient is not known (a bound that is not known fails by itself).
static bool sum_bounds(const Term *t, int n, const Poly *rest, const Facts *fs, Poly *min,
                       Poly *max) {
  *min = *max = *rest;
  for (int k = 0; k < n; k++) {
    long long c;
    int sign;
    Poly neg = poly_scale(&t[k].coef, -1);
    if (poly_is_const(&t[k].coef, &c))
      sign = c > 0 ? 1 : c < 0 ? -1 : 0;
    else if (prove_nonneg(t[k].coef, fs))
      sign = 1;
    else if (prove_nonneg(neg, fs))
      sign = -1;
    else
      return false;
    if (!sign) continue;
    Poly lo = poly_mul(&t[k].coef, sign > 0 ? &t[k].lo : &t[k].hi);
    Poly hi = poly_mul(&t[k].coef, sign > 0 ? &t[k].hi : &t[k].lo);
    *min = poly_add(min, &lo);
    *max = poly_add(max, &hi);
  }
  return true;
}

// sum of the terms + rest is never 0: it is >= 1 everywhere, or <= -1.
static bool bounds_exclude(const Term *t, int n, const Poly *rest, const Facts *fs) {
  Poly min, max;
  if (!sum_bounds(t, n, rest, fs, &min, &max)) return false;
  Poly a = poly_plus(&min, -1), nmax = poly_scale(&max, -1), b = poly_plus(&nmax, -1);
  return prove_nonneg(a, fs) || prove_nonneg(b, fs);
}

static long long gcd(long long a, long long b) {
  while (b) {
    long long r = a % b;
    a = b;
    b = r;
  }
  return a;
}

// sum of the terms + rest == 0 has no integer solution: every coefficient is an integer, their
// gcd g divides every coefficient of rest but its constant.
static bool gcd_excludes(const Term *t, int n, const Poly *rest) {
  long long g = 0, c;
  for (int k = 0; k < n; k++) {
    if (!poly_is_const(&t[k].coef, &c) || c == LLONG_MIN) return false;
    g = gcd(g, c < 0 ? -c : c);
  }
  if (g < 2 || !rest->ok) return false;
  long long c0 = 0;
  for (int k = 0; k < rest->n; k++) {
    if (!mono_deg(&rest->t[k]))
      c0 = rest->t[k].c;
    else if (rest->t[k].c % g)
      return false;
  }
  return c0 % g != 0;
}

Overlap index_overlap(const IndexLoop *lp, Val a, Val b, bool same_iteration) {
  const Overlap maybe = {PROOF_NONE, false, 0};
  Lin abuf, bbuf;
  const Lin *pa = lin_of(lp, a, &abuf), *pb = lin_of(lp, b, &bbuf);
  if (!pa || !pb) return maybe;
  const Lin *la = pa, *lb = pb;
  Facts fs = {0};
  Poly lo = lp->lo ? invariant_poly(lp, lp->lo) : poly_fail();
  Poly hi = lp->hi ? invariant_poly(lp, lp->hi) : poly_fail();
  Poly T = poly_sub(&hi, &lo);              // the trip count, where two iterations run
  fact_add(&fs, poly_plus(&T, same_iteration ? -1 : -2));
  Poly ilo = lo, ihi = poly_plus(&hi, -1);
  Term t[2 * LIN_VARS + 2];
  int n = 0;
  for (int side = 0; side < 2; side++) { // each access in its own iteration of nested loops
    const Lin *l = side ? lb : la;
    for (int k = 1; k < l->n; k++) {
      if (poly_is_zero(&l->coef[k])) continue;
      const Node *nl = l->loop[k];
      Val jlo = nl->kind == IR_PAR ? nl->u.par.lo : nl->u.loop.lo;
      Val jhi = nl->kind == IR_PAR ? nl->u.par.hi : nl->u.loop.hi;
      if (!ty_is_int(val_type(lp->fn, jlo)) || !ty_is_int(val_type(lp->fn, jhi))) return maybe;
      Poly plo = invariant_poly(lp, jlo), phi = invariant_poly(lp, jhi);
      if (!plo.ok || !phi.ok) return maybe; // (a triangular loop: bounds that vary)
      Poly len = poly_sub(&phi, &plo);
      fact_add(&fs, poly_plus(&len, -1)); // it ran: one iteration at least
      t[n++] = (Term){side ? poly_scale(&l->coef[k], -1) : l->coef[k], plo, poly_plus(&phi, -1)};
    }
  }
  Poly rest = poly_sub(&la->rest, &lb->rest);
  if (same_iteration) {
    Poly c = poly_sub(&la->coef[0], &lb->coef[0]);
    if (!c.ok) return maybe;
    if (!poly_is_zero(&c)) t[n++] = (Term){c, ilo, ihi};
    if (gcd_excludes(t, n, &rest)) return (Overlap){PROOF_GCD, false, 0};
    if (bounds_exclude(t, n, &rest, &fs)) return (Overlap){PROOF_BOUNDS, false, 0};
    return (Overlap){PROOF_NONE, n == 0 && poly_is_zero(&rest), 0};
  }
  if (!poly_eq(&la->coef[0], &lb->coef[0])) { // i1 and i2 apart
    t[n++] = (Term){la->coef[0], ilo, ihi};
    t[n++] = (Term){poly_scale(&lb->coef[0], -1), ilo, ihi};
    if (gcd_excludes(t, n, &rest)) return (Overlap){PROOF_GCD, false, 0};
    if (bounds_exclude(t, n, &rest, &fs)) return (Overlap){PROOF_BOUNDS, false, 0};
    return maybe;
  }
  // a * (i1 - i2) with d = i1 - i2 in [1, T-1], or in [-(T-1), -1]
  Poly ca = la->coef[0], one = poly_const(1), mone = poly_const(-1);
  Poly tm1 = poly_plus(&T, -1), ntm1 = poly_scale(&tm1, -1);
  int nn = n;
  if (!poly_is_zero(&ca)) t[n++] = (Term){ca, one, tm1};
  if (gcd_excludes(t, n, &rest)) return (Overlap){PROOF_GCD, false, 0};
  bool up = bounds_exclude(t, n, &rest, &fs);
  if (n > nn) t[nn] = (Term){ca, ntm1, mone};
  if (up && bounds_exclude(t, n, &rest, &fs)) return (Overlap){PROOF_BOUNDS, false, 0};
  // shown to meet: a * d + D == 0 with d = -D / a, no nested index (or both indices invariant)
  long long c, D;
  if (nn || !poly_is_const(&ca, &c) || !poly_is_const(&rest, &D)) return maybe;
  if (!c) return (Overlap){PROOF_NONE, D == 0, D == 0 ? 1 : 0};
  if (D % c || D == LLONG_MIN) return maybe;
  return (Overlap){PROOF_NONE, true, D / c < 0 ? -(D / c) : D / c};
}

IndexHere index_here(const Fn *fn, Node *const *def, Val a, Val b, Val i, Val lo, Val hi) {
  if (a == b || index_same(def, a, b)) return HERE_SAME;
  Poly pa = poly_of(fn, def, a), pb = poly_of(fn, def, b);
  Poly d = poly_sub(&pa, &pb);
  if (!d.ok) return HERE_MAYBE;
  if (poly_is_zero(&d)) return HERE_SAME;
  // every leaf one value here: a difference that is never 0 (as gcd_excludes, the terms' leaves
  // taken for variables)
  Term t[POLY_TERMS];
  Poly rest = poly_const(0);
  int n = 0;
  for (int k = 0; k < d.n; k++) {
    Poly one = {.ok = true, .n = 1, .t = {d.t[k]}};
    one.t[0].c = 1;
    if (mono_deg(&d.t[k]))
      t[n++] = (Term){poly_const(d.t[k].c), one, one};
    else
      rest = poly_const(d.t[k].c);
  }
  if (gcd_excludes(t, n, &rest)) return HERE_DIFFER;
  Facts fs = {0};
  if (lo && hi && ty_is_int(val_type(fn, lo)) && ty_is_int(val_type(fn, hi))) { // lo <= i < hi
    Poly pl = poly_of(fn, def, lo), ph = poly_of(fn, def, hi), pi = poly_leaf(i);
    Poly T = poly_sub(&ph, &pl), il = poly_sub(&pi, &pl), ih = poly_sub(&ph, &pi);
    fact_add(&fs, poly_plus(&T, -1));
    fact_add(&fs, il);
    fact_add(&fs, poly_plus(&ih, -1));
  }
  Poly nd = poly_scale(&d, -1), d1 = poly_plus(&d, -1), nd1 = poly_plus(&nd, -1);
  return prove_nonneg(d1, &fs) || prove_nonneg(nd1, &fs) ? HERE_DIFFER : HERE_MAYBE;
}
