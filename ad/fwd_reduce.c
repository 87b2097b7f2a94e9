// ad/fwd_reduce.c: the forward rules of reduce (papers/dual-numbers-arrays.md,
// papers/reduce-scan-hist-rules.md §2.2-2.6 read forward).
//
//   y = reduce OP e [x_0 .. x_n-1]      y_dot = sum_i dy/dx_i * x_i_dot + dy/de * e_dot
//   +           y_dot = reduce (+) 0 [x_i_dot] (a second reduction in the same loop)
//   *           dy/dx_i = the product of the others (zero count and nonzero product)
//   min, max    y_dot = x_k_dot of the winner k
//   OP with inverse(fn), commutative: dy/dx_i = d(b OP x_i)/dx_i, b = inv(y, x_i)
//   otherwise   the general rule: the reduction runs on dual numbers (x, x_dot), with
//               (a, a') OP' (b, b') = (a OP b, dOP/da a' + dOP/db b')
// The special rules of *, min, max and inverses take a second loop (tangent_pass).
// reduce_rule (analysis/rules.c) classifies.
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fwd.h"

// The invertible-operator rule in forward mode: y = b OP x with b = inv(y, x), so x's tangent
// contributes d(b OP x)/dx * x_dot: the forward mode of the operator's body along x_dot.
// y, x, xd and the result t have the reduction's nf fields.
void user_tangent(Fwd *F, const Red *red, const Val *y, const Val *x, const Val *xd, Val *t) {
  const Lambda *op = red->lam;
  user_invert(&F->b, F->pf, red, F->pv, y, x);
  for (int f = 0; f < red->nf; f++) {
    F->tan[op->pa[f]] = 0;
    F->tan[op->pb[f]] = xd[f];
  }
  clear_tangents(F, op->body);
  F->block(F, op->body);
  for (int f = 0; f < red->nf; f++) {
    Val v = F->tan[op->body->yields[f]];
    t[f] = v ? v : fwd_zero(F, F->pf->vals[red->out[f]].type);
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
bool dual_rule(const Fwd *F, const Node *n, const Red *red) {
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
Lambda *dual_lambda(Fwd *F, const Red *red) {
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
  F->block(F, op->body);
  for (int f = 0; f < nf; f++) block_yield(F->a, d->body, P(op->body->yields[f]));
  for (int f = 0; f < nf; f++) {
    Type *t = F->pf->vals[red->out[f]].type;
    Val v = T(op->body->yields[f]);
    block_yield(F->a, d->body, v ? as_type(F, v, t) : fwd_zero(F, t));
  }
  for (int f = 0; f < nf; f++) F->tan[op->pa[f]] = F->tan[op->pb[f]] = 0;
  F->b.blk = outer;
  return d;
}

// reduce(OP) by the general rule: m's reduction r (a copy of n's, with the primal's initial
// and neutral values) becomes the reduction of dual numbers; its fields (primal, then tangent)
// are yielded by m's body, whose block is current.
void dual_reduction(Fwd *F, const Node *n, Node *m, int r, Block *outer) {
  const Red *red = &n->u.par.reds[r];
  Red *d = &m->u.par.reds[r];
  int nf = red->nf;
  d->slot = m->u.par.body->nyields;
  for (int f = 0; f < nf; f++) block_yield(F->a, m->u.par.body, P(n->u.par.body->yields[red->slot + f]));
  for (int f = 0; f < nf; f++) {
    Type *t = F->pf->vals[red->out[f]].type;
    Val x = T(n->u.par.body->yields[red->slot + f]);
    block_yield(F->a, m->u.par.body, x ? as_type(F, x, t) : fwd_zero(F, t));
  }
  Val *init = ARENA_ARRAY(F->a, Val, 2 * nf), *ne = ARENA_ARRAY(F->a, Val, 2 * nf);
  F->b.blk = outer;
  for (int f = 0; f < nf; f++) {
    Type *t = F->pf->vals[red->out[f]].type;
    Val it = T(red->init[f]);
    init[f] = P(red->init[f]);
    init[nf + f] = it ? as_type(F, it, t) : fwd_zero(F, t);
    ne[f] = P(red->ne[f]);
    ne[nf + f] = fwd_zero(F, t);
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
void builtin_dual(Fwd *F, const Node *n, Node *m, int r, Block *outer) {
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
  block_yield(F->a, m->u.par.body, T(x) ? as_type(F, T(x), t) : fwd_zero(F, t));
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
  init[tf] = it ? as_type(F, it, t) : fwd_zero(F, t);
  ne[0] = red->op == RED_ADD   ? fwd_zero(F, t)
          : red->op == RED_MUL ? b_const_f(b, t, 1)
                               : b_const_f(b, t, red->op == RED_MAX ? -INFINITY : INFINITY);
  ne[tf] = fwd_zero(F, t);
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
void tangent_pass(Fwd *F, const Node *n, Node *m) {
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
  F->block(F, n->u.par.body);
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
      xd[f] = T(xf) ? as_type(F, T(xf), t) : fwd_zero(F, t);
    }
    Type *t0 = F->pf->vals[red->out[0]].type;
    if (red->op == RED_USER) {
      Val *y = fields(F, red);
      for (int f = 0; f < red->nf; f++) y[f] = P(red->out[f]);
      user_tangent(F, red, y, x, xd, term);
    } else if (red->op == RED_MUL) {
      term[0] = b_mul(b, xd[0], mul_partial(b, x[0], nz[r], p[r]));
    } else {
      term[0] = b_select(b, is_winner(b, e->u.par.idx, k[r], iw[r]), xd[0], fwd_zero(F, t0));
    }
    first[r] = e->u.par.body->nyields;
    for (int f = 0; f < red->nf; f++)
      block_yield(F->a, e->u.par.body, term[f] ? term[f] : fwd_zero(F, F->pf->vals[red->out[f]].type));
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
      *s = (Red){.op = RED_ADD, .nf = 1, .init = one_val(F, fwd_zero(F, t)),
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
      id[f] = T(v) ? as_type(F, T(v), t) : fwd_zero(F, t);
    }
    if (any && red->op == RED_USER) {
      Val *y = fields(F, red);
      for (int f = 0; f < red->nf; f++) y[f] = P(red->out[f]);
      user_tangent(F, red, y, init, id, it);
    } else if (any && red->op == RED_MUL) {
      it[0] = b_mul(b, id[0], mul_partial(b, init[0], nz[r], p[r]));
    } else if (any) {
      it[0] = b_select(b, iw[r], id[0], fwd_zero(F, F->pf->vals[red->out[0]].type));
    }
    for (int f = 0; f < red->nf; f++)
      F->tan[red->out[f]] = b_add(b, e->u.par.reds[sum[r] + f].out[0], it[f]);
  }
}
