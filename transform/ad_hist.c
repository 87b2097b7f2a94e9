// transform/ad_hist.c: what the derivative rules of hist need besides the reversal of the
// loop itself (papers/reduce-scan-hist-rules.md §2.9-2.12, histogram-ad.md): copies of a
// histogram's section before and after the loop, and passes over the loop's updates that
// find, per bin, the winner of min/max or the zero count and nonzero product of *.
#include <limits.h>

#include "transform.h"

Val hist_copy(Builder *b, Val arr, Val lo, Val len, const char *hint) {
  Fn *f = b->fn;
  Val c = scan_alloc(b, val_type(f, arr)->elem, len, hint);
  Node *cp = node_new(f->arena, IR_COPY, b->loc);
  cp->u.copy.dst = c;
  cp->u.copy.src = arr;
  cp->u.copy.n = len;
  cp->u.copy.off = lo;
  b_push(b, cp);
  return c;
}

Val hist_bin(Builder *b, Val k, Val lo, Val len) {
  Val kl = b_cast(b, &ty_long, k), lol = b_cast(b, &ty_long, lo);
  Val in = b_binop(b, BIN_GE, kl, lol);
  return b_binop(b, BIN_LAND, in, b_binop(b, BIN_LT, kl, b_binop(b, BIN_ADD, lol, b_cast(b, &ty_long, len))));
}

Val hist_guarded(Builder *b, Val cond, Val arr, Val idx, Val other) {
  Fn *f = b->fn;
  Node *sel = node_new(f->arena, IR_IF, b->loc);
  sel->u.ifs.cond = cond;
  sel->u.ifs.then = block_new(f->arena);
  sel->u.ifs.els = block_new(f->arena);
  Builder tb = {f, sel->u.ifs.then, b->loc};
  block_yield(f->arena, sel->u.ifs.then, b_read(&tb, arr, idx));
  block_yield(f->arena, sel->u.ifs.els, other);
  sel->u.ifs.nouts = 1;
  sel->u.ifs.outs = ARENA_ARRAY(f->arena, Val, 1);
  sel->u.ifs.outs[0] = fn_val(f, val_type(f, other), NULL);
  b_push(b, sel);
  return sel->u.ifs.outs[0];
}

// Rewrites the cloned body b: writes go, updates of clause h become fn's code, other
// updates go (nested loops keep theirs).
static void rewrite(Builder *at, Block *b, int h, Val i, HistVisit fn, void *ctx) {
  Block *out = block_new(at->fn->arena);
  for (int j = 0; j < b->n; j++) {
    Node *n = b->stmts[j];
    if (n->kind == IR_WRITE) continue;
    if (n->kind == IR_UPDATE) {
      if (n->u.mem.hist != h) continue;
      Builder nb = {at->fn, out, n->loc};
      fn(&nb, n->u.mem.idx, n->u.mem.v, i, ctx);
      continue;
    }
    if (n->kind == IR_IF) {
      rewrite(at, n->u.ifs.then, h, i, fn, ctx);
      rewrite(at, n->u.ifs.els, h, i, fn, ctx);
    }
    if (n->kind == IR_LOOP) rewrite(at, n->u.loop.body, h, i, fn, ctx);
    block_push(at->fn->arena, out, n);
  }
  b->stmts = out->stmts, b->n = out->n, b->cap = out->cap;
}

Node *hist_pass(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, HistVisit fn, void *ctx,
                const Hist *hs, int nhs) {
  Val *map = ARENA_ARRAY(b->fn->arena, Val, pf->nvals); // the loop's own values, fresh
  for (Val v = 1; v < (Val)pf->nvals; v++) map[v] = pv[v];
  clone_block(b, pf, &(Block){(Node **)&p, 1, 1, NULL, 0}, map, false);
  Node *m = b->blk->stmts[b->blk->n - 1];
  m->u.par.nreds = m->u.par.nscans = 0;
  m->u.par.body->nyields = 0;
  m->u.par.ninjective = 0;
  rewrite(b, m->u.par.body, h, m->u.par.idx, fn, ctx);
  m->u.par.hists = ARENA_ARRAY(b->fn->arena, Hist, nhs + 1);
  for (int k = 0; k < nhs; k++) m->u.par.hists[k] = hs[k];
  m->u.par.nhists = nhs;
  return m;
}

// ---- min/max: the winner of each bin ----

typedef struct {
  Val h1, lo, len, win; // the final section, the bounds, the winners (hist clause 0, from 0)
} WinCtx;

static void win_visit(Builder *b, Val k, Val v, Val i, void *ctx) {
  WinCtx *c = ctx;
  Val in = hist_bin(b, k, c->lo, c->len);
  Val j = b_binop(b, BIN_SUB, b_cast(b, &ty_long, k), b_cast(b, &ty_long, c->lo));
  Val fin = hist_guarded(b, in, c->h1, j, v); // out of the section: v itself (then skipped)
  Val big = b_const_i(b, &ty_long, LLONG_MAX);
  Val cand = b_select(b, b_binop(b, BIN_EQ, v, fin), b_cast(b, &ty_long, i), big);
  Node *u = node_new(b->fn->arena, IR_UPDATE, b->loc);
  u->u.mem.arr = c->win, u->u.mem.idx = j, u->u.mem.v = cand, u->u.mem.hist = 0;
  b_push(b, u);
}

Val hist_winners(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, Val h0, Val h1) {
  Fn *f = b->fn;
  const Hist *hc = &p->u.par.hists[h];
  Val lo = pv[hc->lo], len = pv[hc->len];
  Val win = scan_alloc(b, &ty_long, len, arena_printf(f->arena, "%s_winner", hc->var));
  // the initial contents win where they are the final value (index -1), else none yet
  Node *init = node_new(f->arena, IR_PAR, b->loc);
  init->u.par.lo = b_const_i(b, val_type(f, len), 0);
  init->u.par.hi = len;
  init->u.par.idx = fn_val(f, val_type(f, len), "j");
  init->u.par.pragma = p->u.par.pragma;
  init->u.par.body = block_new(f->arena);
  Builder ib = {f, init->u.par.body, b->loc};
  Val same = b_binop(&ib, BIN_EQ, b_read(&ib, h0, init->u.par.idx), b_read(&ib, h1, init->u.par.idx));
  b_write(&ib, win, init->u.par.idx,
          b_select(&ib, same, b_const_i(&ib, &ty_long, -1), b_const_i(&ib, &ty_long, LLONG_MAX)));
  b_push(b, init);
  WinCtx c = {h1, lo, len, win};
  Hist wh = {.op = RED_MIN, .arr = win, .lo = b_const_i(b, &ty_long, 0), .len = len, .var = hc->var};
  hist_pass(b, pf, p, pv, h, win_visit, &c, &wh, 1);
  return win;
}

// ---- *: the zero count and nonzero product of each bin's updates ----

typedef struct {
  Val lo, nz, pr; // the section's start; zero counts and products (clauses 0, 1, from 0)
} MulCtx;

static void mul_visit(Builder *b, Val k, Val v, Val i, void *ctx) {
  (void)i;
  MulCtx *c = ctx;
  Type *t = val_type(b->fn, v);
  k = b_binop(b, BIN_SUB, b_cast(b, &ty_long, k), b_cast(b, &ty_long, c->lo));
  Val zero = b_binop(b, BIN_EQ, v, b_const_f(b, t, 0));
  Node *u = node_new(b->fn->arena, IR_UPDATE, b->loc);
  u->u.mem.arr = c->nz, u->u.mem.idx = k, u->u.mem.hist = 0;
  u->u.mem.v = b_select(b, zero, b_const_i(b, &ty_long, 1), b_const_i(b, &ty_long, 0));
  b_push(b, u);
  u = node_new(b->fn->arena, IR_UPDATE, b->loc);
  u->u.mem.arr = c->pr, u->u.mem.idx = k, u->u.mem.hist = 1;
  u->u.mem.v = b_select(b, zero, b_const_f(b, t, 1), v);
  b_push(b, u);
}

void hist_mul_counts(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, Val *nz, Val *pr) {
  Fn *f = b->fn;
  const Hist *hc = &p->u.par.hists[h];
  Val lo = pv[hc->lo], len = pv[hc->len];
  Type *t = pf->vals[hc->arr].type->elem;
  *nz = scan_alloc(b, &ty_long, len, arena_printf(f->arena, "%s_zeros", hc->var));
  *pr = scan_alloc(b, t, len, arena_printf(f->arena, "%s_nonzero", hc->var));
  Node *one = node_new(f->arena, IR_PAR, b->loc); // products start at 1
  one->u.par.lo = b_const_i(b, val_type(f, len), 0);
  one->u.par.hi = len;
  one->u.par.idx = fn_val(f, val_type(f, len), "j");
  one->u.par.pragma = p->u.par.pragma;
  one->u.par.body = block_new(f->arena);
  Builder ob = {f, one->u.par.body, b->loc};
  b_write(&ob, *pr, one->u.par.idx, b_const_f(&ob, t, 1));
  b_push(b, one);
  MulCtx c = {lo, *nz, *pr};
  Val zero = b_const_i(b, &ty_long, 0);
  Hist hs[2] = {{.op = RED_ADD, .arr = *nz, .lo = zero, .len = len, .var = hc->var},
                {.op = RED_MUL, .arr = *pr, .lo = zero, .len = len, .var = hc->var}};
  hist_pass(b, pf, p, pv, h, mul_visit, &c, hs, 2);
}
