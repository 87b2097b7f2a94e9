// ad/fwd.c: forward mode.  f -> f_jvp (language.md §2.2).
//
// Dual numbers over the IR (papers/nested-parallel-ad.md §2): every statement is cloned and
// followed by its tangent statement; a parallel loop carries tangents in the same loop, and
// a +-reduction gets a second +-reduction of the contributions' tangents.  No tape, no
// re-execution, no accumulators.
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ad_internal.h"

typedef struct {
  Arena *a;   // = cx->a
  AdCtx *cx;
  const Fn *pf;
  Fn *f;
  Builder b;
  Val *pv;   // primal value -> value in f
  Val *tan;  // primal scalar -> its tangent in f (0: zero)
  Val *adot; // primal array -> its tangent array (0: inactive)
  unsigned char *varied;
  bool in_par;
  bool drop_writes; // re-executing a loop body: no writes
  int *hist_tan;    // in a loop with hist clauses: clause -> the clause of its tangent, or -1
  bool general;     // --general-rule
  struct HistTan *htan; // a tangent pass of hist(*/min/max/declared): what its updates do
} Fwd;

// The tangent pass of clause h of a hist(*/min/max/declared) loop (values of f): the section's
// bounds, the tangent array, and what the passes before it found.
typedef struct HistTan {
  int h;
  const Hist *hc;
  const Node *par; // the primal loop
  Val lo, len, hdot, h0, h1, win, nz, pr, i;
  Val D, DI, k0; // the general rule's partials; the loop's first index
} HistTan;

#define P(v) (F->pv[v])
#define T(v) ((v) ? F->tan[v] : 0)

static Val *map_fields(Fwd *F, const Val *vs, int nf) {
  Val *p = ARENA_ARRAY(F->a, Val, nf);
  for (int f = 0; f < nf; f++) p[f] = F->pv[vs[f]];
  return p;
}

// Zeroed room for one value per field of a reduction.
static Val *fields(Fwd *F, const Red *red) { return ARENA_ARRAY(F->a, Val, red->nf); }

static Val *one_val(Fwd *F, Val v) {
  Val *p = ARENA_ARRAY(F->a, Val, 1);
  p[0] = v;
  return p;
}

static Val zero_of(Fwd *F, Type *t) {
  return b_const_f(&F->b, t, 0);
}

static Val as_type(Fwd *F, Val x, Type *t) {
  return x && val_type(F->f, x) != t ? b_cast(&F->b, t, x) : x;
}

static void fwd_block(Fwd *F, const Block *b);

static Val fwd_binop(Fwd *F, const Node *n) {
  Val a = n->u.bin.a, c = n->u.bin.b, ta = T(a), tc = T(c);
  Builder *b = &F->b;
  switch (n->u.bin.op) {
  case BIN_ADD: return b_add(b, ta, tc);
  case BIN_SUB: return b_sub(b, ta, tc);
  case BIN_MUL: return b_add(b, b_mul(b, ta, P(c)), b_mul(b, P(a), tc));
  case BIN_DIV: // (ta - r*tc) / c
    if (!ta && !tc) return 0;
    return b_binop(b, BIN_DIV, b_sub(b, ta, b_mul(b, P(n->out), tc)), P(c));
  default: return 0;
  }
}

static Val fwd_call(Fwd *F, const Node *n) {
  Val t = 0;
  for (int k = 0; k < math_arity(n->u.call.fn); k++) {
    Val arg = k ? n->u.call.b : n->u.call.a;
    if (!T(arg)) continue;
    Val d = deriv_call(&F->b, n->u.call.fn, k, P(n->u.call.a), n->u.call.b ? P(n->u.call.b) : 0,
                       P(n->out));
    t = b_add(&F->b, t, b_mul(&F->b, d, T(arg)));
  }
  return t;
}

// Tangents of the values a block yields: zero constants where a value has none.
static void yield_tangents(Fwd *F, Block *dst, const Block *src, int n) {
  Block *outer = F->b.blk;
  F->b.blk = dst;
  for (int i = 0; i < n; i++) {
    Val y = src->yields[i];
    Type *t = F->pf->vals[y].type;
    Val ty = T(y);
    block_yield(F->a, dst, ty ? as_type(F, ty, t) : zero_of(F, t));
  }
  F->b.blk = outer;
}

// outs = if c {A} else {B}  ->  (outs, outs_dot) = if c {A; A_dot} else {B; B_dot}
static void fwd_if(Fwd *F, const Node *n) {
  Node *m = node_new(F->a, IR_IF, n->loc);
  m->u.ifs.cond = P(n->u.ifs.cond);
  Block *outer = F->b.blk;
  const Block *src[2] = {n->u.ifs.then, n->u.ifs.els};
  Block *dst[2];
  int nt = 0;
  int *which = ARENA_ARRAY(F->cx->scratch, int, n->u.ifs.nouts + 1);
  for (int k = 0; k < n->u.ifs.nouts; k++)
    if (F->varied[n->u.ifs.outs[k]]) which[nt++] = k;
  for (int side = 0; side < 2; side++) {
    dst[side] = F->b.blk = block_new(F->a);
    fwd_block(F, src[side]);
    for (int k = 0; k < n->u.ifs.nouts; k++) block_yield(F->a, dst[side], P(src[side]->yields[k]));
  }
  for (int side = 0; side < 2; side++) {
    Block tmp = *src[side];
    Val *ys = ARENA_ARRAY(F->a, Val, nt + 1);
    for (int i = 0; i < nt; i++) ys[i] = src[side]->yields[which[i]];
    tmp.yields = ys;
    tmp.nyields = nt;
    yield_tangents(F, dst[side], &tmp, nt);
  }
  F->b.blk = outer;
  m->u.ifs.then = dst[0];
  m->u.ifs.els = dst[1];
  m->u.ifs.nouts = n->u.ifs.nouts + nt;
  m->u.ifs.outs = ARENA_ARRAY(F->a, Val, m->u.ifs.nouts + 1);
  for (int k = 0; k < n->u.ifs.nouts; k++)
    m->u.ifs.outs[k] = clone_val(F->f, F->pf, n->u.ifs.outs[k], F->pv);
  for (int i = 0; i < nt; i++) {
    Val o = n->u.ifs.outs[which[i]];
    F->tan[o] = m->u.ifs.outs[n->u.ifs.nouts + i] = fn_val(F->f, F->pf->vals[o].type, NULL);
  }
  b_push(&F->b, m);
}

// Forgets the tangents of b's values (an operator's body, differentiated again).
static void clear_tangents(Fwd *F, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->out) F->tan[n->out] = 0;
    if (n->kind == IR_IF) {
      for (int k = 0; k < n->u.ifs.nouts; k++) F->tan[n->u.ifs.outs[k]] = 0;
      clear_tangents(F, n->u.ifs.then);
      clear_tangents(F, n->u.ifs.els);
    }
  }
}

// The invertible-operator rule in forward mode: y = b OP x with b = inv(y, x), so x's tangent
// contributes d(b OP x)/dx * x_dot: the forward mode of the operator's body along x_dot.
// y, x, xd and the result t have the reduction's nf fields.
static void user_tangent(Fwd *F, const Red *red, const Val *y, const Val *x, const Val *xd, Val *t) {
  const Lambda *op = red->lam;
  user_invert(&F->b, F->pf, red, F->pv, y, x);
  for (int f = 0; f < red->nf; f++) {
    F->tan[op->pa[f]] = 0;
    F->tan[op->pb[f]] = xd[f];
  }
  clear_tangents(F, op->body);
  fwd_block(F, op->body);
  for (int f = 0; f < red->nf; f++) {
    Val v = F->tan[op->body->yields[f]];
    t[f] = v ? v : zero_of(F, F->pf->vals[red->out[f]].type);
    F->tan[op->pb[f]] = 0;
  }
}

static const char *dot_name(Fwd *F, const char *hint) {
  return hint ? arena_printf(F->a, "%s_dot", hint) : NULL;
}

// Is reduction red of loop n differentiated by the general rule (dual numbers)? Declared
// operators without an inverse always are; everything under --general-rule, and in a loop
// that updates an array in place, where the second loop of the special rules (tangent_pass)
// would re-read overwritten elements.
static bool dual_rule(const Fwd *F, const Node *n, const Red *red) {
  bool varied = false;
  for (int f = 0; f < red->nf; f++) varied |= F->varied[red->out[f]];
  if (!varied) return false;
  bool general = F->general || (red->op != RED_ADD && ir_updates_in_place(n->u.par.body));
  // (the dual numbers of the built-in operators are for one field: a struct's keep theirs)
  return reduce_rule(red, general) == RULE_GENERAL && (red->op == RED_USER || red->nf == 1);
}

// The general rule in forward mode (dual numbers): a reduction with operator OP runs on pairs
// (a, a_dot) with (a, a_dot) OP' (b, b_dot) = (a OP b, the forward mode of OP along (a_dot,
// b_dot)). OP' is associative (and commutative) when OP is, so the primal result and its
// tangent come from one pass, in the operator's own order. The lambda has 2 * nf fields: the
// primal fields, then their tangents.
static Lambda *dual_lambda(Fwd *F, const Red *red) {
  const Lambda *op = red->lam;
  int nf = op->nf;
  Lambda *d = ARENA_NEW(F->a, Lambda);
  d->nf = 2 * nf;
  d->pa = ARENA_ARRAY(F->a, Val, 2 * nf);
  d->pb = ARENA_ARRAY(F->a, Val, 2 * nf);
  for (int f = 0; f < nf; f++) {
    const ValInfo *a = &F->pf->vals[op->pa[f]], *b = &F->pf->vals[op->pb[f]];
    F->pv[op->pa[f]] = d->pa[f] = fn_val(F->f, a->type, a->hint);
    F->pv[op->pb[f]] = d->pb[f] = fn_val(F->f, b->type, b->hint);
    F->tan[op->pa[f]] = d->pa[nf + f] = fn_val(F->f, a->type, dot_name(F, a->hint));
    F->tan[op->pb[f]] = d->pb[nf + f] = fn_val(F->f, b->type, dot_name(F, b->hint));
  }
  Block *outer = F->b.blk;
  d->body = F->b.blk = block_new(F->a);
  fwd_block(F, op->body);
  for (int f = 0; f < nf; f++) block_yield(F->a, d->body, P(op->body->yields[f]));
  for (int f = 0; f < nf; f++) {
    Type *t = F->pf->vals[red->out[f]].type;
    Val v = T(op->body->yields[f]);
    block_yield(F->a, d->body, v ? as_type(F, v, t) : zero_of(F, t));
  }
  for (int f = 0; f < nf; f++) F->tan[op->pa[f]] = F->tan[op->pb[f]] = 0;
  F->b.blk = outer;
  return d;
}

// reduce(OP) by the general rule: m's reduction r (a copy of n's, with the primal's initial
// and neutral values) becomes the reduction of dual numbers; its fields (primal, then tangent)
// are yielded by m's body, whose block is current.
static void dual_reduction(Fwd *F, const Node *n, Node *m, int r, Block *outer) {
  const Red *red = &n->u.par.reds[r];
  Red *d = &m->u.par.reds[r];
  int nf = red->nf;
  d->slot = m->u.par.body->nyields;
  for (int f = 0; f < nf; f++) block_yield(F->a, m->u.par.body, P(n->u.par.body->yields[red->slot + f]));
  for (int f = 0; f < nf; f++) {
    Type *t = F->pf->vals[red->out[f]].type;
    Val x = T(n->u.par.body->yields[red->slot + f]);
    block_yield(F->a, m->u.par.body, x ? as_type(F, x, t) : zero_of(F, t));
  }
  Val *init = ARENA_ARRAY(F->a, Val, 2 * nf), *ne = ARENA_ARRAY(F->a, Val, 2 * nf);
  F->b.blk = outer;
  for (int f = 0; f < nf; f++) {
    Type *t = F->pf->vals[red->out[f]].type;
    Val it = T(red->init[f]);
    init[f] = P(red->init[f]);
    init[nf + f] = it ? as_type(F, it, t) : zero_of(F, t);
    ne[f] = P(red->ne[f]);
    ne[nf + f] = zero_of(F, t);
  }
  d->nf = 2 * nf;
  d->init = init;
  d->ne = ne;
  d->lam = dual_lambda(F, red);
  d->inv = NULL;
  d->user_fn = arena_printf(F->a, "%s with tangents", red->user_fn);
  d->out = ARENA_ARRAY(F->a, Val, 2 * nf);
  for (int f = 0; f < nf; f++) {
    d->out[f] = clone_val(F->f, F->pf, red->out[f], F->pv);
    d->out[nf + f] = F->tan[red->out[f]] = fn_val(F->f, F->pf->vals[red->out[f]].type, NULL);
  }
  F->b.blk = m->u.par.body;
}

// The general rule for the builtin operators (--general-rule, a cross-check of their special
// rules): + and * on dual numbers, (a, a_dot) * (b, b_dot) = (a b, a b_dot + a_dot b), exact
// with zeros and no division; min and max on (value, index, tangent) triples that keep, on a
// tie, the smaller index, the initial value entering with index -1 (language.md §7).
static void builtin_dual(Fwd *F, const Node *n, Node *m, int r, Block *outer) {
  const Red *red = &n->u.par.reds[r];
  Red *d = &m->u.par.reds[r];
  Builder *b = &F->b;
  Type *t = F->pf->vals[red->out[0]].type;
  bool ext = red->op == RED_MIN || red->op == RED_MAX;
  int nf = ext ? 3 : 2, tf = nf - 1; // the tangent is the last field
  Type *ft[3] = {t, ext ? &ty_long : t, t};
  // contributions
  Val x = n->u.par.body->yields[red->slot];
  d->slot = m->u.par.body->nyields;
  block_yield(F->a, m->u.par.body, P(x));
  if (ext) block_yield(F->a, m->u.par.body, b_cast(b, &ty_long, m->u.par.idx));
  block_yield(F->a, m->u.par.body, T(x) ? as_type(F, T(x), t) : zero_of(F, t));
  // the operator
  Lambda *l = ARENA_NEW(F->a, Lambda);
  l->nf = nf;
  l->pa = ARENA_ARRAY(F->a, Val, nf);
  l->pb = ARENA_ARRAY(F->a, Val, nf);
  static const char *const an[] = {"a", "ka", "a_dot"}, *const bn[] = {"b", "kb", "b_dot"};
  for (int f = 0; f < nf; f++) {
    int h = f == tf ? 2 : f; // the names of the value, index and tangent fields
    l->pa[f] = fn_val(F->f, ft[f], an[h]);
    l->pb[f] = fn_val(F->f, ft[f], bn[h]);
  }
  l->body = b->blk = block_new(F->a);
  Val *a = l->pa, *c = l->pb;
  if (ext) {
    Val take = argext_take(b, red->op == RED_MAX, a, c);
    for (int f = 0; f < nf; f++) block_yield(F->a, l->body, b_select(b, take, c[f], a[f]));
  } else if (red->op == RED_MUL) {
    block_yield(F->a, l->body, b_binop(b, BIN_MUL, a[0], c[0]));
    block_yield(F->a, l->body, b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, a[0], c[1]),
                                       b_binop(b, BIN_MUL, a[1], c[0])));
  } else {
    block_yield(F->a, l->body, b_binop(b, BIN_ADD, a[0], c[0]));
    block_yield(F->a, l->body, b_binop(b, BIN_ADD, a[1], c[1]));
  }
  // initial and neutral values, before the loop
  b->blk = outer;
  Val *init = ARENA_ARRAY(F->a, Val, nf), *ne = ARENA_ARRAY(F->a, Val, nf);
  Val it = T(red->init[0]);
  init[0] = P(red->init[0]);
  init[tf] = it ? as_type(F, it, t) : zero_of(F, t);
  ne[0] = red->op == RED_ADD   ? zero_of(F, t)
          : red->op == RED_MUL ? b_const_f(b, t, 1)
                               : b_const_f(b, t, red->op == RED_MAX ? -INFINITY : INFINITY);
  ne[tf] = zero_of(F, t);
  if (ext) init[1] = b_const_i(b, &ty_long, -1), ne[1] = b_const_i(b, &ty_long, LLONG_MAX);
  d->op = RED_USER;
  d->nf = nf;
  d->init = init;
  d->ne = ne;
  d->lam = l;
  d->inv = NULL;
  d->commutative = true;
  d->user_fn = arena_printf(F->a, "%s with tangents", ext ? (red->op == RED_MIN ? "argmin" : "argmax")
                                                         : redop_name(red->op));
  d->out = ARENA_ARRAY(F->a, Val, nf);
  d->out[0] = clone_val(F->f, F->pf, red->out[0], F->pv);
  if (ext) d->out[1] = fn_val(F->f, &ty_long, NULL);
  d->out[tf] = F->tan[red->out[0]] = fn_val(F->f, t, NULL);
  b->blk = m->u.par.body;
}

// The tangents of reduce(*), min and max need the whole primal first (the zero count and
// nonzero product; the winning element), then a second loop over the tangents:
//   *        y_dot = sum_i x_dot_i * d(x_i) + init_dot * d(init)        (mul_partial)
//   min/max  y_dot = the tangent of the candidate that gets the adjoint in reverse mode
static void tangent_pass(Fwd *F, const Node *n, Node *m) {
  int nr = n->u.par.nreds;
  Builder *b = &F->b;
  Val *nz = ARENA_ARRAY(F->a, Val, nr), *p = ARENA_ARRAY(F->a, Val, nr),
      *k = ARENA_ARRAY(F->a, Val, nr), *iw = ARENA_ARRAY(F->a, Val, nr);
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    if (!F->varied[red->out[0]] || red->op == RED_ADD || dual_rule(F, n, red)) continue;
    if (red->op == RED_MUL) {
      lift_mul(b, m, r, &nz[r], &p[r]);
    } else if (red->op == RED_MIN || red->op == RED_MAX) { // the winner, in the primal loop
      k[r] = lift_argext(b, m, r);
      iw[r] = b_binop(b, BIN_EQ, k[r], b_const_i(b, &ty_long, -1));
    }
  }
  Node *e = node_new(F->a, IR_PAR, n->loc);
  e->u.par.lo = P(n->u.par.lo);
  e->u.par.hi = P(n->u.par.hi);
  int only = -1, count = 0;
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    if (!F->varied[red->out[0]] || red->op == RED_ADD || dual_rule(F, n, red)) continue;
    count++;
    if (red->op == RED_MIN || red->op == RED_MAX) only = r;
  }
  if (count == 1 && only >= 0) { // only the winning iteration has a tangent to add
    Type *it = F->pf->vals[n->u.par.idx].type;
    Val kk = b_cast(b, it, k[only]);
    e->u.par.lo = b_select(b, iw[only], P(n->u.par.hi), kk);
    e->u.par.hi = b_select(b, iw[only], P(n->u.par.hi), b_binop(b, BIN_ADD, kk, b_const_i(b, it, 1)));
  }
  e->u.par.pragma = n->u.par.pragma;
  e->u.par.idx = clone_val(F->f, F->pf, n->u.par.idx, F->pv);
  int nsums = 1; // one +-reduction per field of each reduction with a second-loop tangent
  for (int r = 0; r < nr; r++) nsums += n->u.par.reds[r].nf;
  e->u.par.reds = ARENA_ARRAY(F->a, Red, nsums);
  Block *outer = b->blk;
  e->u.par.body = b->blk = block_new(F->a);
  bool in_par = F->in_par, drop = F->drop_writes;
  F->in_par = true;
  F->drop_writes = true; // a re-execution: the first loop wrote the outputs
  fwd_block(F, n->u.par.body);
  F->drop_writes = drop;
  F->in_par = in_par;
  int *first = ARENA_ARRAY(F->a, int, nr); // the slot of reduction r's first term, or -1
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    first[r] = -1;
    if (!F->varied[red->out[0]] || red->op == RED_ADD || dual_rule(F, n, red)) continue;
    Val *x = fields(F, red), *xd = fields(F, red), *term = fields(F, red);
    for (int f = 0; f < red->nf; f++) {
      Type *t = F->pf->vals[red->out[f]].type;
      Val xf = n->u.par.body->yields[red->slot + f];
      x[f] = P(xf);
      xd[f] = T(xf) ? as_type(F, T(xf), t) : zero_of(F, t);
    }
    Type *t0 = F->pf->vals[red->out[0]].type;
    if (red->op == RED_USER) {
      Val *y = fields(F, red);
      for (int f = 0; f < red->nf; f++) y[f] = P(red->out[f]);
      user_tangent(F, red, y, x, xd, term);
    } else if (red->op == RED_MUL) {
      term[0] = b_mul(b, xd[0], mul_partial(b, x[0], nz[r], p[r]));
    } else {
      term[0] = b_select(b, is_winner(b, e->u.par.idx, k[r], iw[r]), xd[0], zero_of(F, t0));
    }
    first[r] = e->u.par.body->nyields;
    for (int f = 0; f < red->nf; f++)
      block_yield(F->a, e->u.par.body, term[f] ? term[f] : zero_of(F, F->pf->vals[red->out[f]].type));
  }
  b->blk = outer;
  int *sum = ARENA_ARRAY(F->a, int, nr); // index in e of reduction r's first sum
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    if (first[r] < 0) continue;
    sum[r] = e->u.par.nreds;
    for (int f = 0; f < red->nf; f++) {
      Type *t = F->pf->vals[red->out[f]].type;
      Red *s = &e->u.par.reds[e->u.par.nreds++];
      *s = (Red){.op = RED_ADD, .nf = 1, .init = one_val(F, zero_of(F, t)),
                 .out = one_val(F, fn_val(F->f, t, NULL)), .slot = first[r] + f, .var = "tangent"};
    }
  }
  b_push(b, e);
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    if (first[r] < 0) continue;
    Val *init = fields(F, red), *id = fields(F, red), *it = fields(F, red);
    bool any = false; // does the initial value have a tangent?
    for (int f = 0; f < red->nf; f++) any |= T(red->init[f]) != 0;
    for (int f = 0; any && f < red->nf; f++) {
      Type *t = F->pf->vals[red->out[f]].type;
      Val v = red->init[f];
      init[f] = P(v);
      id[f] = T(v) ? as_type(F, T(v), t) : zero_of(F, t);
    }
    if (any && red->op == RED_USER) {
      Val *y = fields(F, red);
      for (int f = 0; f < red->nf; f++) y[f] = P(red->out[f]);
      user_tangent(F, red, y, init, id, it);
    } else if (any && red->op == RED_MUL) {
      it[0] = b_mul(b, id[0], mul_partial(b, init[0], nz[r], p[r]));
    } else if (any) {
      it[0] = b_select(b, iw[r], id[0], zero_of(F, F->pf->vals[red->out[0]].type));
    }
    for (int f = 0; f < red->nf; f++)
      F->tan[red->out[f]] = b_add(b, e->u.par.reds[sum[r] + f].out[0], it[f]);
  }
}

// The tangent of a canonical scan dst = exclusive_scan(+, init, src): the same scan of the
// tangents, dst_dot = exclusive_scan(+, init_dot, src_dot).
static void fwd_scan(Fwd *F, const Node *n, const Val *src, const Val *dst) {
  const Scan *s = &n->u.par.scans[0];
  Builder *b = &F->b;
  clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
  if (!F->varied[s->out[0]]) return;
  Type *t = F->pf->vals[s->out[0]].type;
  Val len = P(n->u.par.hi), sdot = F->adot[src[0]], ddot = F->adot[dst[0]];
  IR_ASSERT(ddot);
  Val init = T(s->init[0]) ? as_type(F, T(s->init[0]), t) : zero_of(F, t);
  Val out = fn_val(F->f, t, NULL);
  // (dst varies whenever out does; src does not when only init varies: zero tangents then)
  Val zeros = sdot ? 0 : scan_alloc(b, t, len, "zeros");
  scan_build(b, F->pf, s, sdot ? &sdot : &zeros, &ddot, len, &init, &out, n->loc, n->u.par.pragma);
  if (zeros) scan_free(b, zeros);
  F->tan[s->out[0]] = out;
}

// The operator of a builtin scan on dual numbers (value, tangent): (a, a') + (b, b') =
// (a + b, a' + b'), (a, a') * (b, b') =
// (a b, a b' + a' b), exact with zeros; min and max keep the earlier pair on a tie.
static Lambda *builtin_scan_dual(Fwd *F, RedOp op, Type *t, Loc loc) {
  Lambda *l = ARENA_NEW(F->a, Lambda);
  l->nf = 2;
  l->pa = ARENA_ARRAY(F->a, Val, 2);
  l->pb = ARENA_ARRAY(F->a, Val, 2);
  l->pa[0] = fn_val(F->f, t, "a"), l->pa[1] = fn_val(F->f, t, "a_dot");
  l->pb[0] = fn_val(F->f, t, "b"), l->pb[1] = fn_val(F->f, t, "b_dot");
  l->body = block_new(F->a);
  Builder b = {F->f, l->body, loc};
  Val v, dv;
  if (op == RED_ADD) { // (--general-rule)
    v = b_binop(&b, BIN_ADD, l->pa[0], l->pb[0]);
    dv = b_binop(&b, BIN_ADD, l->pa[1], l->pb[1]);
  } else if (op == RED_MUL) {
    v = b_binop(&b, BIN_MUL, l->pa[0], l->pb[0]);
    dv = b_binop(&b, BIN_ADD, b_binop(&b, BIN_MUL, l->pa[0], l->pb[1]),
                 b_binop(&b, BIN_MUL, l->pa[1], l->pb[0]));
  } else {
    Val c = b_binop(&b, op == RED_MIN ? BIN_LT : BIN_GT, l->pb[0], l->pa[0]);
    v = b_select(&b, c, l->pb[0], l->pa[0]);
    dv = b_select(&b, c, l->pb[1], l->pa[1]);
  }
  block_yield(F->a, l->body, v);
  block_yield(F->a, l->body, dv);
  return l;
}

// The general rule in forward mode: the scan runs on dual numbers, (x, x') OP' (y, y') =
// (x OP y, the forward mode of OP along (x', y')), which is associative when OP is; one scan
// gives the primal prefixes and their tangents, in the operator's order.
static void fwd_scan_general(Fwd *F, const Node *n, const Val *src, const Val *dst) {
  const Scan *s = &n->u.par.scans[0];
  int d = s->nf;
  Builder *b = &F->b;
  Val len = P(n->u.par.hi);
  Val *xs = ARENA_ARRAY(F->a, Val, 2 * d), *ys = ARENA_ARRAY(F->a, Val, 2 * d),
      *init = ARENA_ARRAY(F->a, Val, 2 * d), *out = ARENA_ARRAY(F->a, Val, 2 * d);
  Val *zeros = ARENA_ARRAY(F->a, Val, d); // zeroed
  for (int f = 0; f < d; f++) {
    Type *t = F->pf->vals[s->out[f]].type;
    xs[f] = P(src[f]);
    ys[f] = P(dst[f]);
    xs[d + f] = F->adot[src[f]] ? F->adot[src[f]] : (zeros[f] = scan_alloc(b, t, len, "zeros"));
    ys[d + f] = F->adot[dst[f]];
    IR_ASSERT(ys[d + f]); // the prefixes vary whenever the scan does
    init[f] = P(s->init[f]);
    init[d + f] = T(s->init[f]) ? as_type(F, T(s->init[f]), t) : zero_of(F, t);
  }
  for (int f = 0; f < d; f++) {
    out[f] = clone_val(F->f, F->pf, s->out[f], F->pv);
    out[d + f] = F->tan[s->out[f]] = fn_val(F->f, F->pf->vals[s->out[f]].type, NULL);
  }
  Scan ds = *s;
  ds.nf = 2 * d;
  ds.op = RED_USER;
  const char *name = s->user_fn ? s->user_fn : redop_name(s->op);
  ds.user_fn = arena_printf(F->a, "%s with tangents", name);
  if (s->op == RED_USER) {
    Red r = {.op = RED_USER, .nf = d, .out = s->out, .lam = s->lam, .user_fn = s->user_fn};
    ds.lam = dual_lambda(F, &r);
  } else {
    ds.lam = builtin_scan_dual(F, s->op, F->pf->vals[s->out[0]].type, n->loc);
  }
  scan_build(b, F->f, &ds, xs, ys, len, init, out, n->loc, n->u.par.pragma);
  for (int f = 0; f < d; f++)
    if (zeros[f]) scan_free(b, zeros[f]);
}

static void fwd_block(Fwd *F, const Block *b);

// In the tangent pass of a hist(*/min/max/declared) clause, the update h[k] OP= v: where
// lo <= k < lo + len, min/max: the bin's winning iteration writes its v_dot as the bin's
// tangent; *, declared: h_dot[k] += d(final)/dv * v_dot (the other factors' product; with an
// inverse, d(rest OP v)/dv with rest = inv(final, v)).
static void hist_tangent(Fwd *F, const Node *n) {
  HistTan *x = F->htan;
  Builder *b = &F->b;
  Type *t = F->pf->vals[n->u.mem.v].type;
  Val k = P(n->u.mem.idx), v = P(n->u.mem.v), vd = T(n->u.mem.v);
  vd = vd ? as_type(F, vd, t) : zero_of(F, t);
  Val in = hist_bin(b, k, x->lo, x->len);
  Val j = b_binop(b, BIN_SUB, b_cast(b, &ty_long, k), b_cast(b, &ty_long, x->lo));
  Node *sel = node_new(F->a, IR_IF, n->loc);
  sel->u.ifs.cond = in;
  sel->u.ifs.then = block_new(F->a);
  sel->u.ifs.els = block_new(F->a);
  Block *outer = b->blk;
  b->blk = sel->u.ifs.then;
  if (!x->D && (x->hc->op == RED_MIN || x->hc->op == RED_MAX)) {
    Val mine = b_binop(b, BIN_EQ, b_read(b, x->win, j), hist_win_key(b, x->par, x->h, n, x->i, x->k0));
    Node *w = node_new(F->a, IR_IF, n->loc);
    w->u.ifs.cond = mine;
    w->u.ifs.then = block_new(F->a);
    w->u.ifs.els = block_new(F->a);
    Builder wb = {F->f, w->u.ifs.then, n->loc};
    b_write(&wb, x->hdot, k, vd);
    b_push(b, w);
    b->blk = outer;
    b_push(b, sel);
    return;
  }
  Val c;
  if (x->D) { // the general rule: this iteration's partial
    Val it = b_binop(b, BIN_SUB, b_cast(b, &ty_long, x->i), b_cast(b, &ty_long, x->k0));
    c = b_mul(b, b_read(b, x->D, it), vd);
  } else if (x->hc->op == RED_MUL) {
    c = b_mul(b, hist_mul_partial(b, x->h0, x->nz, x->pr, j, v), vd);
  } else {
    Red r = {.op = RED_USER, .nf = 1, .lam = x->hc->lam, .inv = x->hc->inv, .commutative = true,
             .out = x->hc->lam->pa};
    Val y = b_read(b, x->h1, j);
    user_tangent(F, &r, &y, &v, &vd, &c);
  }
  block_yield(F->a, sel->u.ifs.then, c);
  b->blk = sel->u.ifs.els;
  block_yield(F->a, sel->u.ifs.els, zero_of(F, t));
  b->blk = outer;
  sel->u.ifs.nouts = 1;
  sel->u.ifs.outs = ARENA_ARRAY(F->a, Val, 1);
  sel->u.ifs.outs[0] = fn_val(F->f, t, NULL);
  b_push(b, sel);
  Node *u = node_new(F->a, IR_UPDATE, n->loc);
  u->u.mem.arr = x->hdot, u->u.mem.idx = k, u->u.mem.v = sel->u.ifs.outs[0], u->u.mem.hist = 0;
  b_push(b, u);
}

typedef struct {
  Fwd *F;
  const Hist *hc;
} FwdOp;


// d(a OP x)/dx (left: /da) for hist_general, by the forward mode of the operator's body.
static Val fwd_dop(void *ctx, Builder *b, Val a, Val x, bool left) {
  FwdOp *o = ctx;
  Fwd *F = o->F;
  const Lambda *op = o->hc->lam;
  Type *t = val_type(b->fn, x);
  switch (o->hc->op) { // (--general-rule; min/max: a tie keeps a)
  case RED_ADD: return b_const_f(b, t, 1);
  case RED_MUL: return left ? x : a;
  case RED_MIN: case RED_MAX: {
    Val later = b_binop(b, o->hc->op == RED_MIN ? BIN_LT : BIN_GT, x, a); // x wins
    return b_select(b, later, b_const_f(b, t, !left), b_const_f(b, t, left));
  }
  case RED_USER: break;
  }
  Builder saved = F->b;
  F->b = *b;
  F->pv[op->pa[0]] = a, F->pv[op->pb[0]] = x;
  Val one = b_const_f(&F->b, val_type(F->f, x), 1);
  F->tan[op->pa[0]] = left ? one : 0;
  F->tan[op->pb[0]] = left ? 0 : one;
  clear_tangents(F, op->body);
  fwd_block(F, op->body);
  Val d = T(op->body->yields[0]);
  if (!d) d = b_const_f(&F->b, val_type(F->f, x), 0);
  F->tan[op->pa[0]] = F->tan[op->pb[0]] = 0;
  F->b = saved;
  return d;
}

// Is clause hc of a top-level loop differentiated after the loop (not hist(+), or
// --general-rule), and by the general rule (no inverse, or --general-rule)?
static bool hist_special(const Fwd *F, const Hist *hc) {
  return (hc->op != RED_ADD || (F->general && !F->in_par)) && F->adot[hc->arr];
}

static bool hist_by_general(const Fwd *F, const Hist *hc) {
  return hist_rule(hc, F->general) == RULE_GENERAL;
}

// Before loop n (top level): the sections of its hist(*/min/max/declared) histograms.
static Val *hist_before(Fwd *F, const Node *n) {
  Val *h0 = ARENA_ARRAY(F->a, Val, n->u.par.nhists + 1);
  for (int h = 0; !F->in_par && h < n->u.par.nhists; h++) {
    const Hist *hc = &n->u.par.hists[h];
    if (hist_special(F, hc))
      h0[h] = hist_copy(&F->b, P(hc->arr), P(hc->lo), P(hc->len),
                        arena_printf(F->a, "%s_before", hc->var));
  }
  return h0;
}

// Forward mode of loop n's hist(*/min/max/declared) clauses, after its primal (h0: the
// sections before it): the final sections, the winners or zero counts, the initial tangents
// scaled by d(final)/d(initial), then per clause a pass over the loop adding the updates'.
static void hist_tangents(Fwd *F, const Node *n, const Val *h0) {
  Builder *b = &F->b;
  for (int h = 0; h < n->u.par.nhists; h++) {
    const Hist *hc = &n->u.par.hists[h];
    if (!hist_special(F, hc)) continue;
    Type *t = F->pf->vals[hc->arr].type->elem;
    HistTan x = {h, hc, n, P(hc->lo), P(hc->len), F->adot[hc->arr], h0[h], 0, 0, 0, 0, 0};
    x.k0 = P(n->u.par.lo);
    bool general = hist_by_general(F, hc);
    if (!general) x.h1 = hist_copy(b, P(hc->arr), x.lo, x.len, arena_printf(F->a, "%s_after", hc->var));
    if (general) {
      FwdOp o = {F, hc};
      hist_general(b, F->pf, n, F->pv, h, x.h0, fwd_dop, &o, &x.D, &x.DI);
    } else if (hc->op == RED_MIN || hc->op == RED_MAX) {
      x.win = hist_winners(b, F->pf, n, F->pv, h, x.h0, x.h1);
    } else if (hc->op == RED_MUL) {
      hist_mul_counts(b, F->pf, n, F->pv, h, &x.nz, &x.pr);
    }
    if (general || (hc->op != RED_MIN && hc->op != RED_MAX)) { // h_dot[lo + j] *= d(final)/d(initial)
      Node *s = node_new(F->a, IR_PAR, n->loc);
      s->u.par.lo = b_const_i(b, val_type(F->f, x.len), 0);
      s->u.par.hi = x.len;
      s->u.par.idx = fn_val(F->f, val_type(F->f, x.len), "j");
      s->u.par.pragma = n->u.par.pragma;
      Block *outer = b->blk;
      s->u.par.body = b->blk = block_new(F->a);
      Val j = s->u.par.idx, at = b_binop(b, BIN_ADD, b_cast(b, &ty_long, x.lo), b_cast(b, &ty_long, j));
      Val init = b_read(b, x.h0, j), d;
      if (general) {
        d = b_read(b, x.DI, j);
      } else if (hc->op == RED_MUL) {
        d = hist_mul_partial(b, x.h0, x.nz, x.pr, j, 0);
      } else {
        Red r = {.op = RED_USER, .nf = 1, .lam = hc->lam, .inv = hc->inv, .commutative = true,
                 .out = hc->lam->pa};
        Val y = b_read(b, x.h1, j), one = b_const_f(b, t, 1);
        user_tangent(F, &r, &y, &init, &one, &d);
      }
      b_write(b, x.hdot, at, b_binop(b, BIN_MUL, b_read(b, x.hdot, at), d));
      b->blk = outer;
      b_push(b, s);
    }
    Node *e = node_new(F->a, IR_PAR, n->loc);
    e->u.par.lo = P(n->u.par.lo);
    e->u.par.hi = P(n->u.par.hi);
    e->u.par.pragma = n->u.par.pragma;
    e->u.par.idx = clone_val(F->f, F->pf, n->u.par.idx, F->pv);
    x.i = e->u.par.idx;
    e->u.par.hists = ARENA_ARRAY(F->a, Hist, 1);
    e->u.par.hists[0] = (Hist){.op = RED_ADD, .arr = x.hdot, .lo = x.lo, .len = x.len, .var = hc->var};
    e->u.par.nhists = 1;
    Block *outer = b->blk;
    e->u.par.body = b->blk = block_new(F->a);
    bool in_par = F->in_par, drop = F->drop_writes;
    int *hist_tan = F->hist_tan;
    F->hist_tan = ARENA_ARRAY(F->a, int, n->u.par.nhists + 1);
    for (int k = 0; k < n->u.par.nhists; k++) F->hist_tan[k] = -1;
    F->in_par = F->drop_writes = true;
    F->htan = &x;
    fwd_block(F, n->u.par.body);
    F->htan = NULL;
    F->in_par = in_par, F->drop_writes = drop, F->hist_tan = hist_tan;
    b->blk = outer;
    b_push(b, e);
    Val tmp[7] = {x.h0, x.h1, x.win, x.nz, x.pr, x.D, x.DI};
    for (int k = 0; k < 7; k++)
      if (tmp[k]) scan_free(b, tmp[k]);
  }
}

// m's hist clauses: n's, then one for the tangents of each varied histogram (hist(+): the
// tangent of h[k] += v is h_dot[k] += v_dot, same bins, same range).  Returns the map from
// n's clauses to their tangents' (-1: none).
static int *tangent_hists(Fwd *F, const Node *n, Node *m) {
  int nh = n->u.par.nhists, nt = 0;
  int *tan = ARENA_ARRAY(F->a, int, nh + 1);
  m->u.par.hists = ARENA_ARRAY(F->a, Hist, 2 * nh + 1);
  for (int h = 0; h < nh; h++) {
    const Hist *src = &n->u.par.hists[h];
    Hist *c = &m->u.par.hists[h];
    *c = *src;
    c->arr = P(src->arr), c->lo = P(src->lo), c->len = P(src->len);
    c->lam = clone_lambda(&F->b, F->pf, src->lam, F->pv);
    c->inv = clone_lambda(&F->b, F->pf, src->inv, F->pv);
    tan[h] = -1;
    if (!F->adot[src->arr]) continue;
    if (src->op != RED_ADD || (F->general && !F->in_par)) { // hist_tangents, after the loop
      if (F->in_par)
        diag_error(n->loc, "hist(+) is differentiated there; the other operators at the top level of the function",
                   "forward mode of hist(%s: ...) inside another loop is not "
                   "supported yet", src->user_fn ? src->user_fn : redop_name(src->op));
      continue;
    }
    tan[h] = nh + nt;
    m->u.par.hists[nh + nt] = *c;
    m->u.par.hists[nh + nt++].arr = F->adot[src->arr];
  }
  m->u.par.nhists = nh + nt;
  return tan;
}

static void fwd_par(Fwd *F, const Node *n) {
  int nf = n->u.par.nscans == 1 ? n->u.par.scans[0].nf : 1;
  Val src[nf], dst[nf];
  if (n->u.par.nscans == 1 && scan_canonical(n, src, dst)) {
    const Scan *s = &n->u.par.scans[0];
    bool varied = false;
    for (int f = 0; f < s->nf; f++) varied |= F->varied[s->out[f]];
    if (scan_rule(s, F->general) == RULE_ADD || !varied)
      fwd_scan(F, n, src, dst);
    else
      fwd_scan_general(F, n, src, dst);
    return;
  }
  if (n->u.par.nscans) diag_error(n->loc, NULL, "forward mode of scan(...) is not supported yet");

  Node *m = node_new(F->a, IR_PAR, n->loc);
  m->u.par.lo = P(n->u.par.lo);
  m->u.par.hi = P(n->u.par.hi);
  m->u.par.pragma = n->u.par.pragma;
  m->u.par.idx = clone_val(F->f, F->pf, n->u.par.idx, F->pv);
  Val *h0 = hist_before(F, n);
  int *hist_tan = F->hist_tan;
  F->hist_tan = tangent_hists(F, n, m);
  Block *outer = F->b.blk;
  m->u.par.body = F->b.blk = block_new(F->a);
  bool in_par = F->in_par;
  F->in_par = true;
  fwd_block(F, n->u.par.body);
  F->in_par = in_par;
  F->hist_tan = hist_tan;
  int nr = n->u.par.nreds, nt = 0;
  m->u.par.reds = ARENA_ARRAY(F->a, Red, 2 * nr + 1);
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    m->u.par.reds[r] = *red;
    if (dual_rule(F, n, red)) {
      if (red->op == RED_USER)
        dual_reduction(F, n, m, r, outer);
      else
        builtin_dual(F, n, m, r, outer);
      continue;
    }
    m->u.par.reds[r].slot = m->u.par.body->nyields;
    for (int f = 0; f < red->nf; f++)
      block_yield(F->a, m->u.par.body, P(n->u.par.body->yields[red->slot + f]));
    m->u.par.reds[r].init = map_fields(F, red->init, red->nf);
    if (red->ne) m->u.par.reds[r].ne = map_fields(F, red->ne, red->nf);
    m->u.par.reds[r].lam = clone_lambda(&F->b, F->pf, red->lam, F->pv);
    m->u.par.reds[r].inv = clone_lambda(&F->b, F->pf, red->inv, F->pv);
  }
  bool extra = false;
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    if (!F->varied[red->out[0]] || dual_rule(F, n, red)) continue;
    if (red->op != RED_ADD) { // tangent from a second loop (tangent_pass)
      extra = true;
      continue;
    }
    Type *t = F->pf->vals[red->out[0]].type;
    Val c = T(n->u.par.body->yields[red->slot]);
    block_yield(F->a, m->u.par.body, c ? as_type(F, c, t) : zero_of(F, t));
    F->b.blk = outer;
    Val init = T(red->init[0]) ? T(red->init[0]) : zero_of(F, t);
    F->b.blk = m->u.par.body;
    Red *tr = &m->u.par.reds[nr + nt++];
    *tr = *red;
    tr->ne = NULL; // a +-reduction: its neutral is 0
    tr->init = one_val(F, init);
    tr->slot = m->u.par.body->nyields - 1;
    tr->out = one_val(F, F->tan[red->out[0]] = fn_val(F->f, t, NULL));
  }
  m->u.par.nreds = nr + nt;
  F->b.blk = outer;
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    if (dual_rule(F, n, red)) continue; // its outputs are set
    Val *o = ARENA_ARRAY(F->a, Val, red->nf);
    for (int f = 0; f < red->nf; f++) o[f] = clone_val(F->f, F->pf, red->out[f], F->pv);
    m->u.par.reds[r].out = o;
  }
  b_push(&F->b, m);
  if (extra) tangent_pass(F, n, m);
  hist_tangents(F, n, h0);
}

// A sequential loop carries, besides its primal values, the tangents of the varied ones.
static void fwd_loop(Fwd *F, const Node *n) {
  Builder *b = &F->b;
  int nc = n->u.loop.ncarry, nt = 0;
  Node *m = node_new(F->a, IR_LOOP, n->loc);
  m->u.loop.lo = P(n->u.loop.lo);
  m->u.loop.hi = P(n->u.loop.hi);
  m->u.loop.stripmine = n->u.loop.stripmine;
  m->u.loop.init = ARENA_ARRAY(F->a, Val, 2 * nc + 1);
  m->u.loop.params = ARENA_ARRAY(F->a, Val, 2 * nc + 1);
  m->u.loop.outs = ARENA_ARRAY(F->a, Val, 2 * nc + 1);
  int *tk = ARENA_ARRAY(F->a, int, nc + 1); // carried value k -> its tangent's slot, or -1
  for (int k = 0; k < nc; k++) {
    m->u.loop.init[k] = P(n->u.loop.init[k]);
    m->u.loop.params[k] = clone_val(F->f, F->pf, n->u.loop.params[k], F->pv);
    tk[k] = -1;
  }
  for (int k = 0; k < nc; k++) {
    Val p = n->u.loop.params[k];
    if (!F->varied[p]) continue;
    Type *t = F->pf->vals[p].type;
    int s = tk[k] = nc + nt++;
    m->u.loop.init[s] = T(n->u.loop.init[k]) ? as_type(F, T(n->u.loop.init[k]), t) : zero_of(F, t);
    m->u.loop.params[s] = F->tan[p] = fn_val(F->f, t, NULL);
  }
  m->u.loop.ncarry = nc + nt;
  m->u.loop.idx = clone_val(F->f, F->pf, n->u.loop.idx, F->pv);
  Block *outer = b->blk;
  m->u.loop.body = b->blk = block_new(F->a);
  fwd_block(F, n->u.loop.body);
  for (int k = 0; k < nc; k++) block_yield(F->a, m->u.loop.body, P(n->u.loop.body->yields[k]));
  for (int k = 0; k < nc; k++) {
    if (tk[k] < 0) continue;
    Type *t = F->pf->vals[n->u.loop.params[k]].type;
    Val y = T(n->u.loop.body->yields[k]);
    block_yield(F->a, m->u.loop.body, y ? as_type(F, y, t) : zero_of(F, t));
  }
  b->blk = outer;
  for (int k = 0; k < nc; k++) {
    m->u.loop.outs[k] = clone_val(F->f, F->pf, n->u.loop.outs[k], F->pv);
    if (tk[k] >= 0)
      m->u.loop.outs[tk[k]] = F->tan[n->u.loop.outs[k]] =
          fn_val(F->f, F->pf->vals[n->u.loop.outs[k]].type, NULL);
  }
  b_push(b, m);
}

static void fwd_node(Fwd *F, const Node *n) {
  Builder *b = &F->b;
  b->loc = n->loc;
  switch (n->kind) {
  case IR_IF: fwd_if(F, n); return;
  case IR_PAR: fwd_par(F, n); return;
  case IR_RETURN: return;
  case IR_LOOP: fwd_loop(F, n); return;
  case IR_UPDATE:
    if (F->htan && n->u.mem.hist == F->htan->h) hist_tangent(F, n);
    if (F->drop_writes) return;
    clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
    if (F->hist_tan[n->u.mem.hist] >= 0 && T(n->u.mem.v)) {
      Node *u = node_new(F->a, IR_UPDATE, n->loc);
      u->u.mem.arr = F->adot[n->u.mem.arr];
      u->u.mem.idx = P(n->u.mem.idx);
      u->u.mem.v = as_type(F, T(n->u.mem.v), F->pf->vals[n->u.mem.arr].type->elem);
      u->u.mem.hist = F->hist_tan[n->u.mem.hist];
      b_push(b, u);
    }
    return;
  case IR_ALLOC: // a temporary, and its tangent
    clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
    if (F->varied[n->out])
      F->adot[n->out] = scan_alloc(b, F->pf->vals[n->out].type->elem, P(n->u.alloc.n),
                                   arena_printf(F->a, "%s_dot", F->pf->vals[n->out].hint));
    return;
  case IR_FREE:
    clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
    if (F->adot[n->u.copy.dst]) scan_free(b, F->adot[n->u.copy.dst]);
    return;
  case IR_ACC: case IR_COPY: case IR_SORT: UNREACHABLE();
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_READ:
  case IR_WRITE: break;
  }
  if (n->kind == IR_WRITE && F->drop_writes) return;
  clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
  Val t = 0;
  switch (n->kind) {
  case IR_UNOP: t = n->u.un.op == UN_NEG ? b_neg(b, T(n->u.un.a)) : 0; break;
  case IR_BINOP: t = fwd_binop(F, n); break;
  case IR_CALL: t = fwd_call(F, n); break;
  case IR_CAST: t = ty_is_float(F->pf->vals[n->u.cast.a].type) ? T(n->u.cast.a) : 0; break;
  case IR_READ:
    if (F->adot[n->u.mem.arr]) t = b_read(b, F->adot[n->u.mem.arr], P(n->u.mem.idx));
    break;
  case IR_WRITE:
    if (F->adot[n->u.mem.arr]) {
      Type *et = F->pf->vals[n->u.mem.arr].type->elem;
      Val tv = T(n->u.mem.v);
      b_write(b, F->adot[n->u.mem.arr], P(n->u.mem.idx), tv ? as_type(F, tv, et) : zero_of(F, et));
    }
    break;
  default: break;
  }
  if (n->out && F->varied[n->out] && t) F->tan[n->out] = as_type(F, t, F->pf->vals[n->out].type);
}

static void fwd_block(Fwd *F, const Block *b) {
  for (int i = 0; i < b->n; i++) fwd_node(F, b->stmts[i]);
}

static Fn *jvp_signature(Fwd *F) {
  const Fn *pf = F->pf;
  Fn *f = fn_new(F->a, arena_printf(F->a, "%s_jvp", pf->name), pf->loc);
  f->ret = pf->ret;
  f->params = ARENA_ARRAY(F->a, Param, pf->nparams * 2 + 1);
  for (int i = 0; i < pf->nparams; i++) {
    const Param *p = &pf->params[i];
    Param *q = &f->params[f->nparams++];
    *q = *p;
    q->val = F->pv[p->val] = fn_val(f, p->type, p->name);
    if (!p->active) continue;
    Param *d = &f->params[f->nparams++];
    *d = *p;
    d->name = arena_printf(F->a, "%s_dot", p->name);
    d->active = false;
    d->is_float = false;
    if (p->is_array) d->type = ty_ptr(F->a, p->type->elem, !p->written);
    d->val = fn_val(f, d->type, d->name);
    if (p->is_array)
      F->adot[p->val] = d->val;
    else
      F->tan[p->val] = d->val;
  }
  if (ty_is_float(pf->ret)) {
    Param *d = &f->params[f->nparams++];
    Type *t = ty_ptr(F->a, pf->ret, false);
    *d = (Param){"ret_dot", t, 0, pf->loc, true, true, true, false};
    d->val = fn_val(f, t, "ret_dot");
  }
  return f;
}

Fn *ad_jvp(AdCtx *cx, const Fn *pf) {
  Arena *a = cx->a;
  Fwd fw = {.a = a, .cx = cx, .pf = pf}, *F = &fw;
  F->cx = cx;
  F->general = cx->general;
  F->pv = ARENA_ARRAY(cx->scratch, Val, pf->nvals);
  F->tan = ARENA_ARRAY(cx->scratch, Val, pf->nvals);
  F->adot = ARENA_ARRAY(cx->scratch, Val, pf->nvals);
  F->varied = activity_varied(cx->scratch, pf);
  F->f = jvp_signature(F);
  F->b = (Builder){F->f, F->f->body, pf->loc};
  fwd_block(F, pf->body);
  const Node *last = pf->body->n ? pf->body->stmts[pf->body->n - 1] : NULL;
  Val ret = last && last->kind == IR_RETURN ? last->u.ret.v : 0;
  if (ty_is_float(pf->ret)) {
    Val t = T(ret) ? T(ret) : zero_of(F, pf->ret);
    b_write(&F->b, F->f->params[F->f->nparams - 1].val, b_const_i(&F->b, &ty_int, 0), t);
  }
  Node *rn = node_new(a, IR_RETURN, pf->loc);
  rn->u.ret.v = ret ? P(ret) : 0;
  b_push(&F->b, rn);
  return F->f;
}
