// ad/rev_util.c: what every reverse rule uses: adjoint accumulation, invariance and hoisting
// of index expressions, queries over a loop's reads and writes, the loop a rule fills.  The
// bottom of ad/rev*.c: it calls no rule (a rule recurses into statements through R->block).
#include <stdlib.h>
#include <string.h>

#include "rev.h"

void note_def(Rev *R, Node *n, unsigned char *mark) {
  if (n->out) {
    R->def[n->out] = n;
    if (mark) mark[n->out] = 1;
  }
  switch (n->kind) {
  case IR_IF:
    rev_note_defs(R, n->u.ifs.then, mark);
    rev_note_defs(R, n->u.ifs.els, mark);
    for (int i = 0; i < n->u.ifs.nouts; i++) {
      R->def[n->u.ifs.outs[i]] = n;
      if (mark) mark[n->u.ifs.outs[i]] = 1;
    }
    break;
  case IR_PAR:
    if (mark) mark[n->u.par.idx] = 1;
    rev_note_defs(R, n->u.par.body, mark);
    for (int r = 0; r < n->u.par.nreds; r++)
      for (int f = 0; f < n->u.par.reds[r].nf; f++) {
        R->def[n->u.par.reds[r].out[f]] = n;
        if (mark) mark[n->u.par.reds[r].out[f]] = 1; // a nested reduction varies
      }
    break;
  case IR_LOOP:
    if (mark) {
      mark[n->u.loop.idx] = 1;
      for (int k = 0; k < n->u.loop.ncarry; k++)
        mark[n->u.loop.params[k]] = mark[n->u.loop.outs[k]] = 1;
    }
    rev_note_defs(R, n->u.loop.body, mark);
    break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
  case IR_COLL: case IR_RETURN: break;
  }
}

void rev_note_defs(Rev *R, const Block *b, unsigned char *mark) {
  for (int i = 0; i < b->n; i++) note_def(R, b->stmts[i], mark);
}

// adj[v] += x (x is a value of f, or 0)
void adj_add(Rev *R, Val v, Val x) {
  if (!x || !v || !R->varied[v]) return;
  Type *t = R->pf->vals[v].type;
  if (val_type(R->f, x) != t) x = b_cast(&R->b, t, x);
  R->adj[v] = b_add(&R->b, R->adj[v], x);
}

Val zero_of(Rev *R, Type *t) {
  return ty_is_float(t) ? b_const_f(&R->b, t, 0) : b_const_i(&R->b, t, 0);
}

static bool invariant_within(Rev *R, Val v, int *budget) {
  if (!R->in_par[v]) return true;
  Node *d = R->def[v];
  if (!d || v == R->par->u.par.idx || --*budget < 0) return false;
  switch (d->kind) {
  case IR_CONST: return true;
  case IR_UNOP: return invariant_within(R, d->u.un.a, budget);
  case IR_BINOP: return invariant_within(R, d->u.bin.a, budget) && invariant_within(R, d->u.bin.b, budget);
  case IR_CAST: return invariant_within(R, d->u.cast.a, budget);
  case IR_CALL:
    return invariant_within(R, d->u.call.a, budget) &&
           (!d->u.call.b || invariant_within(R, d->u.call.b, budget)) &&
           (!d->u.call.c || invariant_within(R, d->u.call.c, budget));
  case IR_EXT:
    for (int k = 0; k < d->u.ext.nargs; k++)
      if (!invariant_within(R, d->u.ext.args[k], budget)) return false;
    return true;
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP:
  case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL:
  case IR_RETURN: return false;
  }
  UNREACHABLE();
}

bool is_invariant(Rev *R, Val v) {
  int budget = WALK_BUDGET;
  return invariant_within(R, v, &budget);
}

// The host-level copy of a loop-invariant value (recomputed after the reverse loop).
Val hoist(Rev *R, Val v) {
  if (!R->in_par[v]) return P(v);
  if (R->hoisted[v]) return R->hoisted[v];
  const Node *d = R->def[v];
  Node *n = node_new(R->a, d->kind, d->loc);
  n->u = d->u;
  switch (d->kind) {
  case IR_CONST: break;
  case IR_UNOP: n->u.un.a = hoist(R, d->u.un.a); break;
  case IR_BINOP: n->u.bin.a = hoist(R, d->u.bin.a), n->u.bin.b = hoist(R, d->u.bin.b); break;
  case IR_CAST: n->u.cast.a = hoist(R, d->u.cast.a); break;
  case IR_CALL:
    n->u.call.a = hoist(R, d->u.call.a);
    if (d->u.call.b) n->u.call.b = hoist(R, d->u.call.b);
    if (d->u.call.c) n->u.call.c = hoist(R, d->u.call.c);
    break;
  case IR_EXT: // (a call: no outs)
    n->u.ext.args = ARENA_ARRAY(R->a, Val, d->u.ext.nargs);
    for (int k = 0; k < d->u.ext.nargs; k++) n->u.ext.args[k] = hoist(R, d->u.ext.args[k]);
    break;
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP:
  case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL:
  case IR_RETURN: UNREACHABLE();
  }
  n->out = clone_val(R->f, R->pf, v, R->hoisted);
  b_push(&R->b, n);
  return n->out;
}

void clear_adj(Rev *R, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->out) R->adj[n->out] = 0;
    if (n->kind == IR_IF) {
      for (int k = 0; k < n->u.ifs.nouts; k++) R->adj[n->u.ifs.outs[k]] = 0;
      clear_adj(R, n->u.ifs.then);
      clear_adj(R, n->u.ifs.els);
    }
  }
}

// A parallel loop over [0, len) whose body the rule fills through R->b; pushed by rev_loop_end.
Node *rev_loop(Rev *R, const Node *n, Val len, Block **outer) {
  Node *m = node_new(R->a, IR_PAR, n->loc);
  m->u.par.lo = b_const_i(&R->b, val_type(R->f, len), 0);
  m->u.par.hi = len;
  m->u.par.idx = fn_val(R->f, val_type(R->f, len), "j");
  m->u.par.pragma = n->u.par.pragma;
  m->u.par.body = block_new(R->a);
  m->u.par.reds = ARENA_NEW(R->a, Red);
  m->u.par.scans = ARENA_NEW(R->a, Scan);
  m->u.par.hists = ARENA_NEW(R->a, Hist);
  *outer = R->b.blk;
  R->b.blk = m->u.par.body;
  return m;
}

void rev_loop_end(Rev *R, Node *m, Block *outer) {
  R->b.blk = outer;
  b_push(&R->b, m);
}

// Does n read arr where the reverse sweep reads it again: in a loop (in_loop: n is in one)?
// A parallel loop's reverse runs its body again, and so does a sequential loop's, iteration
// by iteration; not the run that only counts the iterations of the loop after it (an exit:
// transform/counted.c; that loop reads what it reads).  A read at host level outside loops
// is not made again: its reverse uses the value read.
bool node_rereads(const Node *n, Val arr, bool in_loop) {
  switch (n->kind) {
  case IR_READ: return in_loop && n->u.mem.arr == arr;
  case IR_IF:
    return block_rereads(n->u.ifs.then, arr, in_loop) ||
           block_rereads(n->u.ifs.els, arr, in_loop);
  case IR_PAR: return block_rereads(n->u.par.body, arr, true);
  case IR_LOOP: return block_rereads(n->u.loop.body, arr, in_loop || !n->u.loop.exit);
  case IR_COLL: return n->u.coll.in == arr; // (the reverse of a min, max or product reads it)
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_WRITE:
  case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
  case IR_RETURN: return false;
  }
  UNREACHABLE();
}

bool block_rereads(const Block *b, Val arr, bool in_loop) {
  for (int i = 0; i < b->n; i++)
    if (node_rereads(b->stmts[i], arr, in_loop)) return true;
  return false;
}

// Does every write of arr in b (nested loops included) use the index idx itself (a copy into
// it: no)?
bool writes_at_index(const Block *b, Val arr, Val idx) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_WRITE && n->u.mem.arr == arr && n->u.mem.idx != idx) return false;
    if ((n->kind == IR_COPY || n->kind == IR_SORT) && // (a section, not the element at idx)
        (n->u.copy.dst == arr || (n->u.copy.swap && n->u.copy.src == arr)))
      return false;
    if (n->kind == IR_IF &&
        (!writes_at_index(n->u.ifs.then, arr, idx) || !writes_at_index(n->u.ifs.els, arr, idx)))
      return false;
    if (n->kind == IR_PAR && !writes_at_index(n->u.par.body, arr, idx)) return false;
    if (n->kind == IR_LOOP && !writes_at_index(n->u.loop.body, arr, idx)) return false;
  }
  return true;
}

bool block_writes_active(Rev *R, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_WRITE && R->abar[n->u.mem.arr]) return true;
    if (n->kind == IR_IF &&
        (block_writes_active(R, n->u.ifs.then) || block_writes_active(R, n->u.ifs.els)))
      return true;
  }
  return false;
}
