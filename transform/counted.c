// transform/counted.c: loops that end on a flag (while, do, a for with break: IR_LOOP's exit)
// become counted loops in reverse mode's copy of the function.  Reverse mode runs a loop's
// iterations backwards (and checkpoints them), so it must know how many ran:
//
//   outs = loop i in [lo, hi) until(brk) {...}
//     =>   N = the same loop, counting the iterations it starts;
//          outs = loop i in [lo, lo + N) {...}        (exactly those iterations, no flag)
//
// The loop runs twice in f_vjp.  The first run leaves nothing behind but N: it runs without
// the loop's writes, which is the same run only where the loop reads no array it writes (else
// refused here).
#include "transform.h"

typedef struct {
  bool found, other; // element writes (that a clone can drop), other writes to memory
} Writes;

static WalkNext writes_memory(Node *n, void *ctx) {
  Writes *w = ctx;
  switch (n->kind) {
  case IR_WRITE: case IR_UPDATE:
    w->found = true;
    return WALK_INTO;
  case IR_ACC: case IR_COPY: case IR_SORT: case IR_COLL:
    w->other = true;
    return WALK_STOP;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ:
  case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_FREE: case IR_RETURN:
    return WALK_INTO;
  }
  return WALK_INTO;
}

static WalkNext exit_loop(Node *n, void *ctx) {
  (void)ctx;
  return n->kind == IR_LOOP && n->u.loop.exit ? WALK_STOP : WALK_INTO;
}

bool has_exit_loops(const Fn *f) {
  return ir_walk(f->body, &(Walker){.pre = exit_loop});
}

static void counted_block(Fn *f, Block *b);

// The loops nested in n first.
static void count_nested(Fn *f, Node *n) {
  switch (n->kind) {
  case IR_IF: counted_block(f, n->u.ifs.then), counted_block(f, n->u.ifs.els); return;
  case IR_LOOP: counted_block(f, n->u.loop.body); return;
  case IR_PAR: counted_block(f, n->u.par.body); return;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_COLL: case IR_RETURN:
    return;
  }
}

// Pushes the counting run of loop n to b's block; returns N (long).
static Val count_run(Builder *b, Node *n, bool drop_writes) {
  Fn *f = b->fn;
  Val *map = ARENA_ARRAY(f->arena, Val, f->nvals + 1);
  for (int v = 1; v < f->nvals; v++) map[v] = v; // (values from outside the loop: themselves)
  Val zero = b_const_i(b, &ty_long, 0);
  clone_block(b, f, &(Block){&n, 1, 1, NULL, 0}, map, drop_writes);
  Node *c = b->blk->stmts[b->blk->n - 1];
  int nc = c->u.loop.ncarry;
  Val *init = ARENA_ARRAY(f->arena, Val, nc + 2), *par = ARENA_ARRAY(f->arena, Val, nc + 2),
      *outs = ARENA_ARRAY(f->arena, Val, nc + 2);
  for (int k = 0; k < nc; k++)
    init[k] = c->u.loop.init[k], par[k] = c->u.loop.params[k], outs[k] = c->u.loop.outs[k];
  init[nc] = zero;
  par[nc] = fn_val(f, &ty_long, "started");
  outs[nc] = fn_val(f, &ty_long, "iterations");
  Block *outer = b->blk;
  b->blk = c->u.loop.body;
  block_yield(f->arena, c->u.loop.body, b_binop(b, BIN_ADD, par[nc], b_const_i(b, &ty_long, 1)));
  b->blk = outer;
  c->u.loop.init = init, c->u.loop.params = par, c->u.loop.outs = outs;
  c->u.loop.ncarry = nc + 1;
  c->u.loop.note = "counts the iterations for the reverse sweep";
  return outs[nc];
}

static void counted_block(Fn *f, Block *b) {
  Node **old = b->stmts;
  int n = b->n;
  b->stmts = NULL;
  b->n = b->cap = 0;
  Builder bd = {f, b, f->loc};
  for (int i = 0; i < n; i++) {
    Node *s = old[i];
    count_nested(f, s);
    if (s->kind != IR_LOOP || !s->u.loop.exit) {
      b_push(&bd, s);
      continue;
    }
    Writes w = {false, false};
    ir_walk(s->u.loop.body, &(Walker){.pre = writes_memory, .ctx = &w});
    if (w.other || (w.found && ir_updates_in_place(s->u.loop.body)))
      diag_error(s->loc, "compute the values in the loop and write the arrays after it, or make "
                 "it a counted loop (for (i = lo; i < hi; i++)) without break",
                 "reverse mode of a loop that ends on a condition (while, do, break) and reads "
                 "an array it writes is not supported");
    bd.loc = s->loc;
    Val N = count_run(&bd, s, w.found);
    Type *it = val_type(f, s->u.loop.idx);
    s->u.loop.hi = b_binop(&bd, BIN_ADD, s->u.loop.lo, it == &ty_long ? N : b_cast(&bd, it, N));
    s->u.loop.exit = 0;
    b_push(&bd, s);
  }
}

void count_exit_loops(Fn *f) {
  counted_block(f, f->body);
}
