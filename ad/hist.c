// ad/hist.c: what the derivative rules of hist need besides the reversal of the
// loop itself (papers/reduce-scan-hist-rules.md §2.9-2.12, histogram-ad.md): copies of a
// histogram's section before and after the loop, and passes over the loop's updates that
// find, per bin, the winner of min/max or the zero count and nonzero product of *.
#include <stdlib.h>
#include <limits.h>

#include "ad_internal.h"

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

static WalkNext local_alloc(Node *n, void *ctx) {
  if (n->kind == IR_ALLOC) ((unsigned char *)ctx)[n->out] = 1;
  return WALK_INTO;
}

// Rewrites the cloned body b: writes go (but those to its own local arrays, local[arr]),
// updates of clause h (h < 0: none, a nested parallel loop's body) become fn's code, other
// updates go.
static void rewrite(Builder *at, Block *b, int h, Val i, HistVisit fn, void *ctx,
                    const unsigned char *local) {
  Block *out = block_new(at->fn->arena);
  for (int j = 0; j < b->n; j++) {
    Node *n = b->stmts[j];
    if (n->kind == IR_WRITE && !local[n->u.mem.arr]) continue;
    if (n->kind == IR_UPDATE) {
      if (h < 0 || n->u.mem.hist != h) continue;
      Builder nb = {at->fn, out, n->loc};
      fn(&nb, n->u.mem.idx, n->u.mem.v, i, ctx);
      continue;
    }
    if (n->kind == IR_IF) {
      rewrite(at, n->u.ifs.then, h, i, fn, ctx, local);
      rewrite(at, n->u.ifs.els, h, i, fn, ctx, local);
    }
    if (n->kind == IR_LOOP) rewrite(at, n->u.loop.body, h, i, fn, ctx, local);
    if (n->kind == IR_PAR) rewrite(at, n->u.par.body, -1, i, fn, ctx, local); // its effects are done
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
  unsigned char *local = calloc((size_t)b->fn->nvals, 1);
  if (!local) diag_internal(__FILE__, __LINE__, "out of memory");
  ir_walk(m->u.par.body, &(Walker){.pre = local_alloc, .ctx = local});
  rewrite(b, m->u.par.body, h, m->u.par.idx, fn, ctx, local);
  free(local);
  m->u.par.hists = ARENA_ARRAY(b->fn->arena, Hist, nhs + 1);
  for (int k = 0; k < nhs; k++) m->u.par.hists[k] = hs[k];
  m->u.par.nhists = nhs;
  return m;
}

// A parallel loop over [0, n) (filled through the returned builder's block), pushed by the
// caller: b_push(b, *loop).
static Builder map_over(Builder *b, Val n, const char *pragma, Node **loop) {
  Fn *f = b->fn;
  Node *m = node_new(f->arena, IR_PAR, b->loc);
  m->u.par.lo = b_const_i(b, val_type(f, n), 0);
  m->u.par.hi = n;
  m->u.par.idx = fn_val(f, val_type(f, n), "j");
  m->u.par.pragma = pragma;
  m->u.par.body = block_new(f->arena);
  *loop = m;
  return (Builder){f, m->u.par.body, b->loc};
}

// ---- min/max: the winner of each bin ----
//
// The winner is an update, not an iteration: an iteration may update one bin twice
// (h[b] = fmax(h[b], v); h[b] = fmax(h[b], w);), and only one of its updates gets the bin's
// adjoint (language.md §7: the earliest that attains the final value).  Each update is keyed
// (i - lo) * U + u, with u its site among the clause's U update sites in program order (the
// order in which rewrite() visits them), so the least key is the earliest update.

// The site of update upd of clause h in b (program order, then-side first), counting in *u;
// returns whether it was found.  A site inside a loop nested in the body runs several times
// per iteration: refused (its runs would share one key).
static bool site_of(const Block *b, int h, const Node *upd, long long *u) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_UPDATE && n->u.mem.hist == h) {
      if (n == upd) return true;
      ++*u;
    }
    if (n->kind == IR_IF && (site_of(n->u.ifs.then, h, upd, u) || site_of(n->u.ifs.els, h, upd, u)))
      return true;
    if (n->kind == IR_LOOP) {
      long long inner = 0;
      site_of(n->u.loop.body, h, NULL, &inner);
      if (inner)
        diag_error(n->loc, "update the histogram in the loop's own body (one update per site and iteration)",
                   "reverse mode of hist(min/max: ...) updated inside a loop nested in the "
                   "histogram loop's body is not supported yet");
    }
  }
  return false;
}

long long hist_sites(const Node *p, int h) {
  long long u = 0;
  site_of(p->u.par.body, h, NULL, &u);
  return u;
}

Val hist_win_key(Builder *b, const Node *p, int h, const Node *upd, Val i, Val lo) {
  long long u = 0, U = 0;
  site_of(p->u.par.body, h, upd, &u);
  site_of(p->u.par.body, h, NULL, &U);
  Val it = b_binop(b, BIN_SUB, b_cast(b, &ty_long, i), b_cast(b, &ty_long, lo));
  return b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, it, b_const_i(b, &ty_long, U)), b_const_i(b, &ty_long, u));
}

typedef struct {
  Val h1, lo, len, win; // the final section, the bounds, the winners (hist clause 0, from 0)
  Val plo;              // the loop's first index
  long long site, nsites;
} WinCtx;

static void win_visit(Builder *b, Val k, Val v, Val i, void *ctx) {
  WinCtx *c = ctx;
  Val in = hist_bin(b, k, c->lo, c->len);
  Val j = b_binop(b, BIN_SUB, b_cast(b, &ty_long, k), b_cast(b, &ty_long, c->lo));
  Val fin = hist_guarded(b, in, c->h1, j, v); // out of the section: v itself (then skipped)
  Val big = b_const_i(b, &ty_long, LLONG_MAX);
  Val it = b_binop(b, BIN_SUB, b_cast(b, &ty_long, i), b_cast(b, &ty_long, c->plo));
  Val key = b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, it, b_const_i(b, &ty_long, c->nsites)),
                    b_const_i(b, &ty_long, c->site++));
  Val cand = b_select(b, b_binop(b, BIN_EQ, v, fin), key, big);
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
  Node *init;
  Builder ib = map_over(b, len, p->u.par.pragma, &init);
  Val same = b_binop(&ib, BIN_EQ, b_read(&ib, h0, init->u.par.idx), b_read(&ib, h1, init->u.par.idx));
  b_write(&ib, win, init->u.par.idx,
          b_select(&ib, same, b_const_i(&ib, &ty_long, -1), b_const_i(&ib, &ty_long, LLONG_MAX)));
  b_push(b, init);
  long long nsites = 0;
  site_of(p->u.par.body, h, NULL, &nsites);
  WinCtx c = {h1, lo, len, win, pv[p->u.par.lo], 0, nsites};
  Hist wh = {.op = RED_MIN, .arr = win, .lo = b_const_i(b, &ty_long, 0), .len = len, .var = hc->var};
  hist_pass(b, pf, p, pv, h, win_visit, &c, &wh, 1);
  return win;
}

// C target, f_vjp: the loop records the winners itself (emit_par.c emit_update_win): one
// pass over the updates instead of the primal's and hist_winners' (a hand-written adjoint's
// "the maximum with its earliest index").  Before the loop, win[b] = -1: the initial contents.
Val hist_win_alloc(Builder *b, const Node *p, int h, Val len) {
  Fn *f = b->fn;
  const Hist *hc = &p->u.par.hists[h];
  Val win = scan_alloc(b, &ty_long, len, arena_printf(f->arena, "%s_winner", hc->var));
  Node *init;
  Builder ib = map_over(b, len, p->u.par.pragma, &init);
  b_write(&ib, win, init->u.par.idx, b_const_i(&ib, &ty_long, -1));
  b_push(b, init);
  return win;
}

// The updates of clause h in b numbered as site_of counts them.
static void number_sites(Block *b, int h, long long *u) {
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_UPDATE && n->u.mem.hist == h) n->u.mem.site = (int)(*u)++;
    if (n->kind == IR_IF) {
      number_sites(n->u.ifs.then, h, u);
      number_sites(n->u.ifs.els, h, u);
    }
  }
}

void hist_win_inline(Node *clone, const Node *p, int h, Val win) {
  long long u = 0;
  Hist *hc = &clone->u.par.hists[h];
  hc->win = win;
  hc->nsites = hist_sites(p, h);
  number_sites(clone->u.par.body, h, &u);
  IR_ASSERT(u == hc->nsites);
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

Val hist_mul_partial(Builder *b, Val h0, Val nz, Val pr, Val j, Val x) {
  Type *t = val_type(b->fn, h0)->elem;
  Val init = b_read(b, h0, j), z0 = b_binop(b, BIN_EQ, init, b_const_f(b, t, 0));
  Val zeros = b_binop(b, BIN_ADD, b_read(b, nz, j), b_cast(b, &ty_long, z0));
  Val p = b_binop(b, BIN_MUL, b_read(b, pr, j), b_select(b, z0, b_const_f(b, t, 1), init));
  return mul_partial(b, x ? x : init, zeros, p);
}

void hist_mul_counts(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, Val *nz, Val *pr) {
  Fn *f = b->fn;
  const Hist *hc = &p->u.par.hists[h];
  Val lo = pv[hc->lo], len = pv[hc->len];
  Type *t = pf->vals[hc->arr].type->elem;
  *nz = scan_alloc(b, &ty_long, len, arena_printf(f->arena, "%s_zeros", hc->var));
  *pr = scan_alloc(b, t, len, arena_printf(f->arena, "%s_nonzero", hc->var));
  Node *one; // products start at 1
  Builder ob = map_over(b, len, p->u.par.pragma, &one);
  b_write(&ob, *pr, one->u.par.idx, b_const_f(&ob, t, 1));
  b_push(b, one);
  MulCtx c = {lo, *nz, *pr};
  Val zero = b_const_i(b, &ty_long, 0);
  Hist hs[2] = {{.op = RED_ADD, .arr = *nz, .lo = zero, .len = len, .var = hc->var},
                {.op = RED_MUL, .arr = *pr, .lo = zero, .len = len, .var = hc->var}};
  hist_pass(b, pf, p, pv, h, mul_visit, &c, hs, 2);
}

// ---- the general rule: the updates sorted by bin ----

// a OP x for the operator of clause hc, at b (min/max: a tie keeps a).
static Val apply(Builder *b, const Fn *pf, const Hist *hc, Val a, Val x) {
  switch (hc->op) {
  case RED_ADD: return b_binop(b, BIN_ADD, a, x);
  case RED_MUL: return b_binop(b, BIN_MUL, a, x);
  case RED_MIN: return b_select(b, b_binop(b, BIN_LT, x, a), x, a);
  case RED_MAX: return b_select(b, b_binop(b, BIN_GT, x, a), x, a);
  case RED_USER: break;
  }
  Val *map = ARENA_ARRAY(b->fn->arena, Val, pf->nvals);
  map[hc->lam->pa[0]] = a;
  map[hc->lam->pb[0]] = x;
  clone_block(b, pf, hc->lam->body, map, false);
  return map[hc->lam->body->yields[0]];
}

// The operator of a segmented scan over (flag, value) pairs, flag 1 starting a segment:
// forward, (f, a) + (g, x) = (f | g, g ? x : a OP x); reverse (the element on the left, flag 1
// ending a segment), (f, a) + (g, x) = (f | g, f ? a : a OP x).
static Lambda *segmented(Builder *at, const Fn *pf, const Hist *hc, Type *t, bool reverse) {
  Fn *f = at->fn;
  Lambda *l = ARENA_NEW(f->arena, Lambda);
  l->nf = 2;
  l->pa = ARENA_ARRAY(f->arena, Val, 2);
  l->pb = ARENA_ARRAY(f->arena, Val, 2);
  l->pa[0] = fn_val(f, &ty_long, "f"), l->pa[1] = fn_val(f, t, "a");
  l->pb[0] = fn_val(f, &ty_long, "g"), l->pb[1] = fn_val(f, t, "x");
  l->body = block_new(f->arena);
  Builder b = {f, l->body, at->loc};
  Val flag = b_binop(&b, BIN_BOR, l->pa[0], l->pb[0]);
  Val both = apply(&b, pf, hc, l->pa[1], l->pb[1]);
  Val cut = b_binop(&b, BIN_NE, reverse ? l->pa[0] : l->pb[0], b_const_i(&b, &ty_long, 0));
  Val v = b_select(&b, cut, reverse ? l->pa[1] : l->pb[1], both);
  block_yield(f->arena, l->body, flag);
  block_yield(f->arena, l->body, v);
  return l;
}

// An if on cond whose then-block the returned builder fills (no values merged); pushed at b.
static Builder when(Builder *b, Val cond) {
  Fn *f = b->fn;
  Node *n = node_new(f->arena, IR_IF, b->loc);
  n->u.ifs.cond = cond;
  n->u.ifs.then = block_new(f->arena);
  n->u.ifs.els = block_new(f->arena);
  b_push(b, n);
  return (Builder){f, n->u.ifs.then, b->loc};
}

typedef struct {
  Val k0, lo, len, key, val; // the loop's first index; the section; keys and values
} CollectCtx;

static void collect_visit(Builder *b, Val k, Val v, Val i, void *ctx) {
  CollectCtx *c = ctx;
  Val j = b_binop(b, BIN_SUB, b_cast(b, &ty_long, i), b_cast(b, &ty_long, c->k0));
  Val in = hist_bin(b, k, c->lo, c->len);
  Val rel = b_binop(b, BIN_SUB, b_cast(b, &ty_long, k), b_cast(b, &ty_long, c->lo));
  b_write(b, c->key, j, b_select(b, in, rel, b_cast(b, &ty_long, c->len)));
  b_write(b, c->val, j, v);
}

static int count_updates(const Block *b, int h) {
  int n = 0;
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    if (s->kind == IR_UPDATE && s->u.mem.hist == h) n++;
    if (s->kind == IR_IF) { // one side runs
      int t = count_updates(s->u.ifs.then, h), e = count_updates(s->u.ifs.els, h);
      n += t > e ? t : e;
    }
    if (s->kind == IR_LOOP) n += 2 * count_updates(s->u.loop.body, h); // maybe many
  }
  return n;
}

// A sequential loop over [0, n) (filled through the returned builder's block), pushed by
// the caller: b_push(b, *loop).
static Builder seq_over(Builder *b, Val n, Node **loop) {
  Fn *f = b->fn;
  Node *m = node_new(f->arena, IR_LOOP, b->loc);
  m->u.loop.lo = b_const_i(b, val_type(f, n), 0);
  m->u.loop.hi = n;
  m->u.loop.idx = fn_val(f, val_type(f, n), "q");
  m->u.loop.body = block_new(f->arena);
  *loop = m;
  return (Builder){f, m->u.loop.body, b->loc};
}

// The general rule on the C target: no sort.  The operator is commutative, so what an update
// needs is the bin's other updates, before and after it in index order, whatever the other
// bins do: one pass in index order keeps each bin's running value (h0 OP the updates so far)
// and records it before each update (L); one pass in reverse order keeps each bin's fold of
// the later updates (R, with a flag: none yet), and gives D = d(L OP v)/dv * d(m OP R)/dm,
// m = L OP v, as the sorted form does (the same folds, in the same order: a tie of min/max
// goes to the earlier update).  After it R is the fold of all of a bin's updates, for DI.
// Per update one OP forward and two OP and two partials back, all over bins in cache and
// arrays read in order, against the sorted form's gathers through the permutation; but
// sequential (papers' §2.8 on a GPU: the sort).
static void general_seq(Builder *b, const Fn *pf, const Node *p, int h, Val h0,
                        OpPartial dop, void *ctx, Val *D, Val *DI, Val key, Val val, Val n,
                        Val len, Type *t) {
  Fn *f = b->fn;
  Arena *a = f->arena;
  const Hist *hc = &p->u.par.hists[h];
  const char *pr = p->u.par.pragma, *var = hc->var;
  Val zero = b_const_i(b, &ty_long, 0), one = b_const_i(b, &ty_long, 1);
  Val run = scan_alloc(b, t, len, arena_printf(a, "%s_running", var));
  Node *cp = node_new(a, IR_COPY, b->loc);
  cp->u.copy.dst = run, cp->u.copy.src = h0, cp->u.copy.n = len, cp->u.copy.off = zero;
  b_push(b, cp);
  Val lv = scan_alloc(b, t, n, arena_printf(a, "%s_before_each", var));
  Node *m;
  Builder sb = seq_over(b, n, &m); // forward: L = the bin's running value, then run OP= v
  {
    Val q = m->u.loop.idx, kq = b_read(&sb, key, q);
    Builder in = when(&sb, b_binop(&sb, BIN_LT, kq, len));
    Val v = b_read(&in, val, q), L = b_read(&in, run, kq);
    b_write(&in, lv, q, L);
    b_write(&in, run, kq, apply(&in, pf, hc, L, v));
  }
  b_push(b, m);
  Val rv = scan_alloc(b, t, len, arena_printf(a, "%s_after", var));
  Val has = scan_alloc(b, &ty_long, len, arena_printf(a, "%s_has_after", var));
  sb = seq_over(b, n, &m); // backward: q = n - 1 - r
  {
    Val q = b_binop(&sb, BIN_SUB, b_binop(&sb, BIN_SUB, n, one), m->u.loop.idx);
    Val kq = b_read(&sb, key, q);
    Builder in = when(&sb, b_binop(&sb, BIN_LT, kq, len));
    Val v = b_read(&in, val, q), L = b_read(&in, lv, q);
    Val mv = apply(&in, pf, hc, L, v); // (before the partial, which shares its terms)
    Val d1 = dop(ctx, &in, L, v, false);
    Val later = b_binop(&in, BIN_NE, b_read(&in, has, kq), zero);
    Node *c = node_new(a, IR_IF, b->loc); // (later updates: R = rv[kq]; none: v alone)
    c->u.ifs.cond = later;
    c->u.ifs.then = block_new(a);
    c->u.ifs.els = block_new(a);
    Builder tb = {f, c->u.ifs.then, b->loc};
    Val R = b_read(&tb, rv, kq);
    Val d2 = dop(ctx, &tb, mv, R, true);
    block_yield(a, c->u.ifs.then, b_binop(&tb, BIN_MUL, d1, d2));
    block_yield(a, c->u.ifs.then, apply(&tb, pf, hc, v, R));
    block_yield(a, c->u.ifs.els, d1);
    block_yield(a, c->u.ifs.els, v);
    c->u.ifs.nouts = 2;
    c->u.ifs.outs = ARENA_ARRAY(a, Val, 2);
    c->u.ifs.outs[0] = fn_val(f, t, NULL);
    c->u.ifs.outs[1] = fn_val(f, t, NULL);
    b_push(&in, c);
    b_write(&in, *D, q, c->u.ifs.outs[0]);
    b_write(&in, rv, kq, c->u.ifs.outs[1]);
    b_write(&in, has, kq, one);
  }
  b_push(b, m);
  Builder mb = map_over(b, len, pr, &m); // per bin: d(h0 OP all its updates)/dh0, or 1
  {
    Val j = m->u.par.idx;
    Builder yes = when(&mb, b_binop(&mb, BIN_NE, b_read(&mb, has, j), zero));
    b_write(&yes, *DI, j, dop(ctx, &yes, b_read(&yes, h0, j), b_read(&yes, rv, j), true));
  }
  b_push(b, m);
  Val tmp[] = {key, val, run, lv, rv, has};
  for (size_t k = 0; k < sizeof tmp / sizeof *tmp; k++) scan_free(b, tmp[k]);
}

void hist_general(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, Val h0, OpPartial dop,
                  void *ctx, Val *D, Val *DI, bool sorted) {
  Fn *f = b->fn;
  Arena *a = f->arena;
  const Hist *hc = &p->u.par.hists[h];
  if (count_updates(p->u.par.body, h) > 1)
    diag_error(p->loc, "write one update of the histogram per iteration",
               "the general rule for hist(%s: ...) with several updates per iteration is not "
               "supported yet", hc->user_fn ? hc->user_fn : redop_name(hc->op));
  Type *t = pf->vals[hc->arr].type->elem;
  const char *pr = p->u.par.pragma, *var = hc->var;
  Val len = b_cast(b, &ty_long, pv[hc->len]);
  Val k0 = b_cast(b, &ty_long, pv[p->u.par.lo]);
  Val span = b_binop(b, BIN_SUB, b_cast(b, &ty_long, pv[p->u.par.hi]), k0);
  Val zero = b_const_i(b, &ty_long, 0), one = b_const_i(b, &ty_long, 1);
  Val n = b_select(b, b_binop(b, BIN_GT, span, zero), span, zero);
  Val key = scan_alloc(b, &ty_long, n, arena_printf(a, "%s_bins", var));
  Val val = scan_alloc(b, t, n, arena_printf(a, "%s_updates", var));
  *D = scan_alloc(b, t, n, arena_printf(a, "%s_partial", var));
  *DI = scan_alloc(b, t, len, arena_printf(a, "%s_init_partial", var));
  Node *m;
  Builder mb = map_over(b, n, pr, &m); // no update: the bin past the section
  b_write(&mb, key, m->u.par.idx, len);
  b_push(b, m);
  mb = map_over(b, len, pr, &m); // bins without updates keep their initial contents
  b_write(&mb, *DI, m->u.par.idx, b_const_f(&mb, t, 1));
  b_push(b, m);
  CollectCtx cc = {pv[p->u.par.lo], pv[hc->lo], pv[hc->len], key, val};
  hist_pass(b, pf, p, pv, h, collect_visit, &cc, NULL, 0);
  if (!sorted) {
    general_seq(b, pf, p, h, h0, dop, ctx, D, DI, key, val, n, len, t);
    return;
  }
  // the updates ordered by bin (stable), their values and segment flags in that order
  Val perm = scan_alloc(b, &ty_long, n, arena_printf(a, "%s_order", var));
  Node *s = node_new(a, IR_SORT, b->loc);
  s->u.copy.dst = perm, s->u.copy.src = key, s->u.copy.n = n, s->u.copy.off = len;
  b_push(b, s);
  Val sk = scan_alloc(b, &ty_long, n, arena_printf(a, "%s_sorted_bins", var));
  Val sv = scan_alloc(b, t, n, arena_printf(a, "%s_sorted", var));
  Val fs = scan_alloc(b, &ty_long, n, arena_printf(a, "%s_first", var));
  Val fe = scan_alloc(b, &ty_long, n, arena_printf(a, "%s_last", var));
  Val sv0 = scan_alloc(b, t, n, arena_printf(a, "%s_sorted_from_initial", var));
  mb = map_over(b, n, pr, &m); // the gather (the only pass reading in the permuted order)
  {
    Val q = m->u.par.idx, i = b_read(&mb, perm, q);
    b_write(&mb, sk, q, b_read(&mb, key, i));
    b_write(&mb, sv, q, b_read(&mb, val, i));
  }
  b_push(b, m);
  mb = map_over(b, n, pr, &m); // a bin's first and last update; the first combined with h0
  {
    Val q = b_cast(&mb, &ty_long, m->u.par.idx), kq = b_read(&mb, sk, q);
    Val prev = b_select(&mb, b_binop(&mb, BIN_GT, q, zero), b_binop(&mb, BIN_SUB, q, one), q);
    Val last = b_binop(&mb, BIN_SUB, n, one);
    Val next = b_select(&mb, b_binop(&mb, BIN_LT, q, last), b_binop(&mb, BIN_ADD, q, one), q);
    Val kp = b_read(&mb, sk, prev), kn = b_read(&mb, sk, next);
    Val first = b_binop(&mb, BIN_LOR, b_binop(&mb, BIN_EQ, q, zero), b_binop(&mb, BIN_NE, kp, kq));
    Val end = b_binop(&mb, BIN_LOR, b_binop(&mb, BIN_EQ, q, last), b_binop(&mb, BIN_NE, kn, kq));
    b_write(&mb, fs, q, b_cast(&mb, &ty_long, first));
    b_write(&mb, fe, q, b_cast(&mb, &ty_long, end));
    Val v = b_read(&mb, sv, q);
    Node *c = node_new(a, IR_IF, b->loc); // h0 OP v at a bin's first update in the section
    c->u.ifs.cond = b_binop(&mb, BIN_LAND, first, b_binop(&mb, BIN_LT, kq, len));
    c->u.ifs.then = block_new(a);
    c->u.ifs.els = block_new(a);
    Builder tb = {f, c->u.ifs.then, b->loc};
    block_yield(a, c->u.ifs.then, apply(&tb, pf, hc, b_read(&tb, h0, kq), v));
    block_yield(a, c->u.ifs.els, v);
    c->u.ifs.nouts = 1;
    c->u.ifs.outs = ARENA_ARRAY(a, Val, 1);
    c->u.ifs.outs[0] = fn_val(f, t, NULL);
    b_push(&mb, c);
    b_write(&mb, sv0, q, c->u.ifs.outs[0]);
  }
  b_push(b, m);
  // within each bin: the updates before (lv) and after (rv) each, by segmented scans
  Val lv = scan_alloc(b, t, n, arena_printf(a, "%s_before_each", var));
  Val rv = scan_alloc(b, t, n, arena_printf(a, "%s_after_each", var));
  for (int r = 0; r < 2; r++) {
    Scan sc = {.op = RED_USER, .nf = 2, .lam = segmented(b, pf, hc, t, r), .reverse = r,
               .user_fn = arena_printf(a, "%s by bin", hc->user_fn ? hc->user_fn : redop_name(hc->op)),
               .var = var};
    Val src[2] = {r ? fe : fs, r ? sv : sv0}, dst[2] = {0, r ? rv : lv};
    Val init[2] = {zero, b_const_f(b, t, 0)}, out[2] = {fn_val(f, &ty_long, NULL), fn_val(f, t, NULL)};
    scan_build(b, f, &sc, src, dst, n, init, out, b->loc, pr);
  }
  // per update: d(final)/dv = d(L OP v)/dv * d(m OP R)/dm with L = h0 OP (earlier updates)
  // (the forward scan's, h0 folded into a bin's first update), m = L OP v, R = (later
  // updates); per bin: d(h0 OP T)/dh0, T = all its updates (in this order, so that a tie of
  // min/max goes to the earlier candidate, language.md §7)
  mb = map_over(b, n, pr, &m);
  {
    Val q = m->u.par.idx, i = b_read(&mb, perm, q), kq = b_read(&mb, sk, q);
    Builder in = when(&mb, b_binop(&mb, BIN_LT, kq, len));
    Val v = b_read(&in, sv, q), init = b_read(&in, h0, kq);
    Val first = b_binop(&in, BIN_NE, b_read(&in, fs, q), zero);
    Val last = b_binop(&in, BIN_NE, b_read(&in, fe, q), zero);
    Val before = b_read(&in, lv, q), after = b_read(&in, rv, q);
    Val L = b_select(&in, first, init, before);
    Val mv = apply(&in, pf, hc, L, v);
    Val d1 = dop(ctx, &in, L, v, false), d2 = dop(ctx, &in, mv, after, true);
    b_write(&in, *D, i, b_binop(&in, BIN_MUL, d1, b_select(&in, last, b_const_f(&in, t, 1), d2)));
    Builder fb = when(&in, first);
    Val all = b_select(&fb, last, v, apply(&fb, pf, hc, v, after));
    b_write(&fb, *DI, kq, dop(ctx, &fb, init, all, true));
  }
  b_push(b, m);
  Val tmp[] = {key, val, perm, sk, sv, sv0, fs, fe, lv, rv};
  for (size_t k = 0; k < sizeof tmp / sizeof *tmp; k++) scan_free(b, tmp[k]);
}
