// transform/clone.c: copying IR with renaming (the re-execution of "redundant execution").
#include <stdlib.h>
#include <string.h>

#include "transform.h"

Val clone_val(Fn *dst, const Fn *src, Val v, Val *map) {
  if (!v) return 0;
  Val n = fn_val(dst, src->vals[v].type, src->vals[v].hint);
  dst->vals[n].adecl = src->vals[v].adecl;
  dst->vals[n].adecl_num = src->vals[v].adecl_num;
  dst->vals[n].avla = src->vals[v].avla;
  dst->vals[n].arows = src->vals[v].arows;
  map[v] = n;
  return n;
}

// The writes a clone leaves out (a re-execution): all, but those of keep[arr] (non-NULL)
// and those to the arrays the cloned code allocates itself (local[arr]: a body's local
// array, filled by a loop and read back; its writes are the body's, not its effects).
typedef struct {
  const unsigned char *keep;
  unsigned char *local; // (indexed by the source's values)
} Drop;

static Val M(const Val *map, Val v) {
  if (!v) return 0;
  IR_ASSERT(map[v]);
  return map[v];
}

static Val *clone_vals(Arena *a, Fn *dst, const Fn *src, const Val *vs, int n, Val *map) {
  Val *out = ARENA_ARRAY(a, Val, n ? n : 1);
  for (int i = 0; i < n; i++) out[i] = clone_val(dst, src, vs[i], map);
  return out;
}

static void clone_node(Builder *b, const Fn *sf, const Node *s, Val *map, const Drop *drop);

static void clone_stmts(Builder *b, const Fn *sf, const Block *src, Val *map, const Drop *drop) {
  for (int i = 0; i < src->n; i++) clone_node(b, sf, src->stmts[i], map, drop);
}

static Block *clone_sub(Builder *b, const Fn *sf, const Block *src, Val *map, const Drop *drop) {
  Block *outer = b->blk, *blk = block_new(b->fn->arena);
  b->blk = blk;
  clone_stmts(b, sf, src, map, drop);
  for (int i = 0; i < src->nyields; i++) block_yield(b->fn->arena, blk, M(map, src->yields[i]));
  b->blk = outer;
  return blk;
}

static Val *map_vals(Arena *a, const Val *vs, int n, const Val *map) {
  Val *out = ARENA_ARRAY(a, Val, n ? n : 1);
  for (int i = 0; i < n; i++) out[i] = M(map, vs[i]);
  return out;
}

Lambda *clone_lambda(Builder *b, const Fn *sf, const Lambda *l, Val *map) {
  if (!l) return NULL;
  Arena *a = b->fn->arena;
  Lambda *c = ARENA_NEW(a, Lambda);
  c->nf = l->nf;
  c->pa = clone_vals(a, b->fn, sf, l->pa, l->nf, map);
  c->pb = clone_vals(a, b->fn, sf, l->pb, l->nf, map);
  c->body = clone_sub(b, sf, l->body, map, NULL);
  return c;
}

static void clone_node(Builder *b, const Fn *sf, const Node *s, Val *map, const Drop *drop) {
  Arena *a = b->fn->arena;
  if (drop && (s->kind == IR_WRITE || s->kind == IR_UPDATE) &&
      !(drop->keep && drop->keep[s->u.mem.arr]) && !drop->local[s->u.mem.arr])
    return;
  if (drop && s->kind == IR_ALLOC) drop->local[s->out] = 1;
  Node *n = node_new(a, s->kind, s->loc);
  n->u = s->u;
  switch (s->kind) {
  case IR_CONST: break;
  case IR_UNOP: n->u.un.a = M(map, s->u.un.a); break;
  case IR_BINOP:
    n->u.bin.a = M(map, s->u.bin.a);
    n->u.bin.b = M(map, s->u.bin.b);
    break;
  case IR_CALL:
    n->u.call.a = M(map, s->u.call.a);
    n->u.call.b = M(map, s->u.call.b);
    n->u.call.c = M(map, s->u.call.c);
    break;
  case IR_CAST: n->u.cast.a = M(map, s->u.cast.a); break;
  case IR_EXT:
    n->u.ext.args = map_vals(a, s->u.ext.args, s->u.ext.nargs, map);
    n->u.ext.outs = clone_vals(a, b->fn, sf, s->u.ext.outs, s->u.ext.nouts, map);
    break;
  case IR_READ:
  case IR_WRITE:
  case IR_ACC:
  case IR_UPDATE:
    n->u.mem.arr = M(map, s->u.mem.arr);
    n->u.mem.idx = M(map, s->u.mem.idx);
    n->u.mem.v = M(map, s->u.mem.v);
    break;
  case IR_IF:
    n->u.ifs.cond = M(map, s->u.ifs.cond);
    n->u.ifs.then = clone_sub(b, sf, s->u.ifs.then, map, drop);
    n->u.ifs.els = clone_sub(b, sf, s->u.ifs.els, map, drop);
    n->u.ifs.outs = clone_vals(a, b->fn, sf, s->u.ifs.outs, s->u.ifs.nouts, map);
    break;
  case IR_LOOP:
    n->u.loop.lo = M(map, s->u.loop.lo);
    n->u.loop.hi = M(map, s->u.loop.hi);
    n->u.loop.init = ARENA_ARRAY(a, Val, s->u.loop.ncarry + 1);
    for (int i = 0; i < s->u.loop.ncarry; i++) n->u.loop.init[i] = M(map, s->u.loop.init[i]);
    n->u.loop.idx = clone_val(b->fn, sf, s->u.loop.idx, map);
    n->u.loop.params = clone_vals(a, b->fn, sf, s->u.loop.params, s->u.loop.ncarry, map);
    n->u.loop.exit = s->u.loop.exit ? M(map, s->u.loop.exit) : 0;
    n->u.loop.body = clone_sub(b, sf, s->u.loop.body, map, drop);
    n->u.loop.outs = clone_vals(a, b->fn, sf, s->u.loop.outs, s->u.loop.ncarry, map);
    break;
  case IR_PAR:
    n->u.par.lo = M(map, s->u.par.lo);
    n->u.par.hi = M(map, s->u.par.hi);
    n->u.par.color = s->u.par.color ? M(map, s->u.par.color) : 0;
    n->u.par.wins = map_vals(a, s->u.par.wins, s->u.par.nwins, map);
    n->u.par.idx = clone_val(b->fn, sf, s->u.par.idx, map);
    n->u.par.reds = ARENA_ARRAY(a, Red, s->u.par.nreds + 1);
    for (int r = 0; r < s->u.par.nreds; r++) {
      const Red *sr = &s->u.par.reds[r];
      Red *nr = &n->u.par.reds[r];
      *nr = *sr;
      nr->init = map_vals(a, sr->init, sr->nf, map);
      if (sr->ne) nr->ne = map_vals(a, sr->ne, sr->nf, map);
      nr->lam = clone_lambda(b, sf, sr->lam, map);
      nr->inv = clone_lambda(b, sf, sr->inv, map);
    }
    n->u.par.scans = ARENA_ARRAY(a, Scan, s->u.par.nscans + 1);
    for (int k = 0; k < s->u.par.nscans; k++) {
      const Scan *ss = &s->u.par.scans[k];
      Scan *ns = &n->u.par.scans[k];
      *ns = *ss;
      ns->init = map_vals(a, ss->init, ss->nf, map);
      ns->excl = clone_vals(a, b->fn, sf, ss->excl, ss->nf, map);
      ns->lam = clone_lambda(b, sf, ss->lam, map);
    }
    if (drop) n->u.par.nhists = 0; // re-executed without its updates (emit.c's hist_par)
    n->u.par.hists = ARENA_ARRAY(a, Hist, s->u.par.nhists + 1);
    for (int k = 0; k < n->u.par.nhists; k++) {
      n->u.par.hists[k] = s->u.par.hists[k];
      n->u.par.hists[k].arr = M(map, s->u.par.hists[k].arr);
      n->u.par.hists[k].lo = M(map, s->u.par.hists[k].lo);
      n->u.par.hists[k].len = M(map, s->u.par.hists[k].len);
      if (s->u.par.hists[k].win) n->u.par.hists[k].win = M(map, s->u.par.hists[k].win);
      n->u.par.hists[k].lam = clone_lambda(b, sf, s->u.par.hists[k].lam, map);
      n->u.par.hists[k].inv = clone_lambda(b, sf, s->u.par.hists[k].inv, map);
    }
    n->u.par.injective = map_vals(a, s->u.par.injective, s->u.par.ninjective, map);
    n->u.par.body = clone_sub(b, sf, s->u.par.body, map, drop);
    for (int r = 0; r < s->u.par.nreds; r++)
      n->u.par.reds[r].out = clone_vals(a, b->fn, sf, s->u.par.reds[r].out, s->u.par.reds[r].nf, map);
    for (int k = 0; k < s->u.par.nscans; k++)
      n->u.par.scans[k].out = clone_vals(a, b->fn, sf, s->u.par.scans[k].out, s->u.par.scans[k].nf, map);
    break;
  case IR_ALLOC: n->u.alloc.n = M(map, s->u.alloc.n); break;
  case IR_COPY: case IR_SORT:
  case IR_FREE:
    n->u.copy.dst = M(map, s->u.copy.dst);
    n->u.copy.src = M(map, s->u.copy.src);
    n->u.copy.n = M(map, s->u.copy.n);
    n->u.copy.off = M(map, s->u.copy.off);
    n->u.copy.doff = M(map, s->u.copy.doff);
    break;
  case IR_COLL:
    n->u.coll.in = M(map, s->u.coll.in), n->u.coll.out = M(map, s->u.coll.out);
    n->u.coll.in_d = M(map, s->u.coll.in_d), n->u.coll.out_d = M(map, s->u.coll.out_d);
    n->u.coll.count = M(map, s->u.coll.count), n->u.coll.root = M(map, s->u.coll.root);
    n->u.coll.comm = M(map, s->u.coll.comm);
    break;
  case IR_RETURN:
    n->u.ret.v = M(map, s->u.ret.v);
    n->u.ret.gv = ARENA_ARRAY(b->fn->arena, Val, s->u.ret.ng + 1);
    for (int k = 0; k < s->u.ret.ng; k++) n->u.ret.gv[k] = M(map, s->u.ret.gv[k]);
    break;
  }
  if (s->out) n->out = clone_val(b->fn, sf, s->out, map);
  b_push(b, n);
}

static void clone_dropping(Builder *b, const Fn *sf, const Block *src, Val *map,
                           const unsigned char *keep) {
  Drop d = {keep, calloc((size_t)sf->nvals, 1)};
  if (!d.local) diag_internal(__FILE__, __LINE__, "out of memory");
  clone_stmts(b, sf, src, map, &d);
  free(d.local);
}

void clone_block(Builder *b, const Fn *sf, const Block *src, Val *map, bool drop_writes) {
  if (drop_writes) clone_dropping(b, sf, src, map, NULL);
  else clone_stmts(b, sf, src, map, NULL);
}

void clone_block_keep(Builder *b, const Fn *sf, const Block *src, Val *map,
                      const unsigned char *keep) {
  clone_dropping(b, sf, src, map, keep);
}
