// transform/stripmine.c: strip-mined checkpointing of sequential loops (language.md §5,
// papers/nested-parallel-ad.md §4).
//
// Reverse mode keeps, for a sequential loop, one saved state per iteration (ad_rev.c).  A
// loop of T iterations strip-mined L levels deep becomes L nested loops of about
// B = ceil(T^(1/L)) iterations each:
//
//   for (k = 0; k < ceil(T / B^(L-1)); k++)          level L: B^(L-1) iterations per step
//     for (t = lo + k*B^(L-1); t < min(hi, ...); ...) ...   level 1: the original body
//
// Each level keeps the states of its own iterations, so about L * B states are alive at
// once, and the reverse sweep re-runs each level forward once more: L = 2 keeps 2*sqrt(T)
// states for about one extra forward pass.  The rewrite works on a copy of the function
// (the primal f stays as written).
#include <string.h>

#include "transform.h"

Fn *fn_copy(Arena *a, const Fn *src) {
  Fn *f = fn_new(a, src->name, src->loc);
  Val *map = ARENA_ARRAY(a, Val, src->nvals + 1);
  f->ret = src->ret;
  f->is_static = src->is_static;
  f->params = ARENA_ARRAY(a, Param, src->nparams + 1);
  f->nparams = src->nparams;
  for (int i = 0; i < src->nparams; i++) {
    f->params[i] = src->params[i];
    Val v = src->params[i].val, par = src->vals[v].parent;
    if (par && !map[par]) map[par] = fn_val(f, src->vals[par].type, src->vals[par].hint);
    f->params[i].val = map[v] = par ? fn_field_val(f, map[par], src->vals[v].field)
                                    : clone_val(f, src, v, map);
  }
  Builder b = {f, f->body, src->loc};
  clone_block(&b, src, src->body, map, false);
  return f;
}

static Val clong(Builder *b, Val v) {
  return val_type(b->fn, v) == &ty_long ? v : b_cast(b, &ty_long, v);
}

static Val lmax(Builder *b, Val x, Val y) {
  return b_select(b, b_binop(b, BIN_GT, x, y), x, y);
}

static Val lmin(Builder *b, Val x, Val y) {
  return b_select(b, b_binop(b, BIN_LT, x, y), x, y);
}

// Level `level` (>= 2) of loop n over the iterations [a, c) (long values of b's block), in
// steps of `chunk` iterations; its carried values start at init and end in outs.
static Node *level_loop(Builder *b, Node *n, int level, int levels, Val a, Val c,
                        const Val *chunks, const Val *init, const Val *outs) {
  Fn *f = b->fn;
  Arena *ar = f->arena;
  int nc = n->u.loop.ncarry;
  Val chunk = chunks[level - 1];
  Val len = lmax(b, b_binop(b, BIN_SUB, c, a), b_const_i(b, &ty_long, 0));
  Val one = b_const_i(b, &ty_long, 1);
  Node *m = node_new(ar, IR_LOOP, n->loc);
  m->u.loop.lo = b_const_i(b, &ty_long, 0);
  m->u.loop.hi = b_binop(b, BIN_DIV, b_binop(b, BIN_SUB, b_add(b, len, chunk), one), chunk);
  m->u.loop.idx = fn_val(f, &ty_long, "step");
  m->u.loop.stripmine = 1;
  m->u.loop.strips = true;
  m->u.loop.ncarry = nc;
  m->u.loop.init = ARENA_ARRAY(ar, Val, nc + 1);
  m->u.loop.params = ARENA_ARRAY(ar, Val, nc + 1);
  m->u.loop.outs = ARENA_ARRAY(ar, Val, nc + 1);
  m->u.loop.note =
      level == levels
          ? arena_printf(ar, "stripmine(%d), level %d of %d: steps of B^%d iterations (B = "
                         "ceil(T^(1/%d)), T the iterations); f_vjp keeps ceil(T/B^%d) states "
                         "here and at most B per inner level: about %d*T^(1/%d) in all",
                         levels, level, levels, level - 1, levels, level - 1, levels, levels)
          : arena_printf(ar, "stripmine(%d), level %d of %d: steps of B^%d iterations", levels,
                         level, levels, level - 1);
  Val *inner_out = ARENA_ARRAY(ar, Val, nc + 1);
  for (int k = 0; k < nc; k++) {
    m->u.loop.init[k] = init[k];
    m->u.loop.params[k] = fn_val(f, val_type(f, init[k]), NULL);
    m->u.loop.outs[k] = outs[k];
    inner_out[k] = fn_val(f, val_type(f, init[k]), NULL);
  }
  Block *outer = b->blk;
  m->u.loop.body = b->blk = block_new(ar);
  Val a2 = b_add(b, a, b_binop(b, BIN_MUL, m->u.loop.idx, chunk));
  Val c2 = lmin(b, c, b_add(b, a2, chunk));
  if (level > 2) {
    b_push(b, level_loop(b, n, level - 1, levels, a2, c2, chunks, m->u.loop.params, inner_out));
  } else { // the original loop over [a2, c2)
    Type *it = val_type(f, n->u.loop.idx);
    n->u.loop.lo = b_cast(b, it, a2);
    n->u.loop.hi = b_cast(b, it, c2);
    n->u.loop.stripmine = 1;
    n->u.loop.note = arena_printf(ar, "stripmine(%d), level 1 of %d: B iterations per step",
                                  levels, levels);
    for (int k = 0; k < nc; k++) {
      n->u.loop.init[k] = m->u.loop.params[k];
      n->u.loop.outs[k] = inner_out[k];
    }
    b_push(b, n);
  }
  for (int k = 0; k < nc; k++) block_yield(ar, m->u.loop.body, inner_out[k]);
  b->blk = outer;
  return m;
}

static void mine_block(Fn *f, Block *blk, int deflt, int outer);

// Loop n (pushed by the caller's block rebuild) strip-mined `levels` deep.
static Node *mine(Builder *b, Node *n, int levels) {
  Fn *f = b->fn;
  Val lo = clong(b, n->u.loop.lo), hi = clong(b, n->u.loop.hi);
  Val T = lmax(b, b_binop(b, BIN_SUB, hi, lo), b_const_i(b, &ty_long, 0));
  Val r = b_call(b, M_POW, b_cast(b, &ty_double, T), b_const_f(b, &ty_double, 1.0 / levels));
  Val B = lmax(b, b_cast(b, &ty_long, b_call(b, M_CEIL, r, 0)), b_const_i(b, &ty_long, 1));
  Val *chunks = ARENA_ARRAY(f->arena, Val, levels + 1);
  chunks[0] = b_const_i(b, &ty_long, 1);
  for (int l = 1; l < levels; l++) chunks[l] = l == 1 ? B : b_binop(b, BIN_MUL, chunks[l - 1], B);
  Val *init = ARENA_ARRAY(f->arena, Val, n->u.loop.ncarry + 1);
  Val *outs = ARENA_ARRAY(f->arena, Val, n->u.loop.ncarry + 1);
  memcpy(init, n->u.loop.init, sizeof(Val) * (size_t)n->u.loop.ncarry);
  memcpy(outs, n->u.loop.outs, sizeof(Val) * (size_t)n->u.loop.ncarry);
  return level_loop(b, n, levels, levels, lo, hi, chunks, init, outs);
}

// The levels of strip-mined loops nested in one another, in all: the reverse sweep re-runs
// every level inside a level forward again, so the code grows with the square of the nesting
// (and the passes recurse as deep): 16 nested loops of stripmine(16) gave 330 MB of C.
#define MAX_STRIPMINED 64

// outer: the levels of the strip-mined loops around blk
static void mine_block(Fn *f, Block *blk, int deflt, int outer) {
  Node **old = blk->stmts;
  int n = blk->n;
  blk->stmts = NULL;
  blk->n = blk->cap = 0;
  Builder b = {f, blk, f->loc};
  for (int i = 0; i < n; i++) {
    Node *s = old[i];
    b.loc = s->loc;
    // (a loop that ends on a flag is the run that counts the iterations of the loop after it,
    // counted.c: never reversed, and its upper bound, LONG_MAX, is no count to split)
    bool seq = s->kind == IR_LOOP && !s->u.loop.exit;
    int levels = seq ? (s->u.loop.stripmine ? s->u.loop.stripmine : deflt) : 1;
    int inner = outer + (levels > 1 ? levels : 0);
    if (inner > MAX_STRIPMINED)
      diag_error(s->loc, "strip-mine fewer of the nested loops, or with fewer levels "
                 "(--stripmine=L applies to every sequential loop at the function's level and "
                 "in those)", "strip-mined loops nested %d levels deep in all (stripmine(L) "
                 "makes L levels; at most %d)", inner, MAX_STRIPMINED);
    if (seq) mine_block(f, s->u.loop.body, deflt, inner); // loops in time loops
    if (levels > 1)
      b_push(&b, mine(&b, s, levels));
    else
      b_push(&b, s);
  }
}

void stripmine_loops(Fn *f, int deflt) {
  mine_block(f, f->body, deflt < 1 ? 1 : deflt, 0);
}
