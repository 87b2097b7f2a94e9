// transform/fuse.c: horizontal fusion of parallel loops, and common subexpressions.
//
// After differentiation, f_vjp holds the primal loop and, right after it, its reverse loop
// over the same index space; the reverse loop re-reads what the primal loop read.  Two
// adjacent loops over the same [lo, hi) fuse into one when no iteration of the second can
// observe another iteration of the first:
//   - the second uses none of the first's results (reductions),
//   - the second writes no array the first touches,
//   - an array the first writes, the second reads only at the loop index (elementwise).
// Common subexpressions (the same pure operation on the same operands, or the same element
// read with no write to its array in between) are then shared.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transform.h"
#include "../analysis/analysis.h"

// ---- what a loop body touches ----

typedef struct {
  const Fn *f;
  unsigned char *used;    // values used
  unsigned char *written; // arrays written (write, acc, update)
  unsigned char *read;    // arrays read
  unsigned char *off;     // arrays read or written at an index other than the loop's
  Val idx;
  unsigned char *nonacc;  // arrays read, written or updated (not only accumulated into)
  unsigned char *plain;   // arrays accumulated into without atomics
} Touch;

static void u(Touch *t, Val v) {
  if (v) t->used[v] = 1;
}

// What n itself touches (the walk goes into its blocks).
static WalkNext touch_node(Node *n, void *ctx) {
  Touch *t = ctx;
  switch (n->kind) {
  case IR_CONST: break;
  case IR_UNOP: u(t, n->u.un.a); break;
  case IR_BINOP: u(t, n->u.bin.a), u(t, n->u.bin.b); break;
  case IR_CALL: u(t, n->u.call.a), u(t, n->u.call.b), u(t, n->u.call.c); break;
  case IR_EXT:
    for (int k = 0; k < n->u.ext.nargs; k++) u(t, n->u.ext.args[k]);
    break;
  case IR_CAST: u(t, n->u.cast.a); break;
  case IR_READ:
    u(t, n->u.mem.idx);
    t->read[n->u.mem.arr] = t->nonacc[n->u.mem.arr] = 1;
    if (n->u.mem.idx != t->idx) t->off[n->u.mem.arr] = 1;
    break;
  case IR_WRITE: case IR_ACC: case IR_UPDATE:
    u(t, n->u.mem.idx), u(t, n->u.mem.v);
    t->written[n->u.mem.arr] = 1;
    if (n->kind != IR_ACC) t->nonacc[n->u.mem.arr] = 1;
    if (n->u.mem.idx != t->idx) t->off[n->u.mem.arr] = 1;
    if (n->kind == IR_ACC && n->u.mem.mode == ACC_PLAIN) t->plain[n->u.mem.arr] = 1;
    break;
  case IR_IF: u(t, n->u.ifs.cond); break;
  case IR_LOOP:
    u(t, n->u.loop.lo), u(t, n->u.loop.hi);
    for (int i = 0; i < n->u.loop.ncarry; i++) u(t, n->u.loop.init[i]);
    break;
  case IR_PAR:
    u(t, n->u.par.lo), u(t, n->u.par.hi);
    if (n->u.par.color) u(t, n->u.par.color);
    for (int k = 0; k < n->u.par.nwins; k++) u(t, n->u.par.wins[k]);
    for (int k = 0; k < n->u.par.nhists; k++) { // (the winners no statement of the body names)
      Val w = n->u.par.hists[k].win;
      if (w) t->written[w] = t->off[w] = t->nonacc[w] = 1;
    }
    break;
  case IR_ALLOC: // a temporary (never inside a loop body): a loop may move past its
    u(t, n->u.alloc.n);                         // allocation and release, not its use
    t->written[n->out] = t->nonacc[n->out] = 1;
    break;
  case IR_FREE:
    t->written[n->u.copy.dst] = t->nonacc[n->u.copy.dst] = 1;
    break;
  case IR_COLL: // (a collective: no loop moves past it)
    u(t, n->u.coll.count), u(t, n->u.coll.root), u(t, n->u.coll.comm);
    t->written[0] = 1;
    break;
  case IR_COPY: case IR_SORT: // (never inside a loop body: what a loop moves past)
    u(t, n->u.copy.n), u(t, n->u.copy.off), u(t, n->u.copy.doff);
    t->written[n->u.copy.dst] = t->nonacc[n->u.copy.dst] = 1;
    t->read[n->u.copy.src] = t->nonacc[n->u.copy.src] = 1;
    if (n->kind == IR_COPY && n->u.copy.swap) t->written[n->u.copy.src] = 1;
    break;
  case IR_RETURN:
    t->written[0] = 1; // never inside a loop body; refuse to fuse
    break;
  }
  return WALK_INTO;
}

static void touch_yields(Block *b, void *t) {
  for (int i = 0; i < b->nyields; i++) u(t, b->yields[i]);
}

// What statement s (with the statements nested in it) touches, into t.
static void touch_stmt(Touch *t, const Node *s) {
  ir_walk_node(s, &(Walker){.pre = touch_node, .block = touch_yields, .ctx = t});
}

static Touch touch_new(const Fn *f, Val idx) {
  size_t nv = (size_t)f->nvals;
  return (Touch){f, calloc(nv, 1), calloc(nv, 1), calloc(nv, 1), calloc(nv, 1), idx, calloc(nv, 1), calloc(nv, 1)};
}

static Touch touch(const Fn *f, const Node *p) {
  Touch t = touch_new(f, p->u.par.idx);
  ir_walk(p->u.par.body, &(Walker){.pre = touch_node, .block = touch_yields, .ctx = &t});
  u(&t, p->u.par.lo), u(&t, p->u.par.hi);
  if (p->u.par.color) u(&t, p->u.par.color);
  for (int k = 0; k < p->u.par.nwins; k++) u(&t, p->u.par.wins[k]);
  for (int r = 0; r < p->u.par.nreds; r++)
    for (int k = 0; k < p->u.par.reds[r].nf; k++) {
      u(&t, p->u.par.reds[r].init[k]);
      if (p->u.par.reds[r].ne) u(&t, p->u.par.reds[r].ne[k]);
    }
  for (int r = 0; r < p->u.par.nscans; r++)
    for (int k = 0; k < p->u.par.scans[r].nf; k++) u(&t, p->u.par.scans[r].init[k]);
  for (int h = 0; h < p->u.par.nhists; h++) {
    const Hist *hs = &p->u.par.hists[h];
    u(&t, hs->lo), u(&t, hs->len);
    t.written[hs->arr] = t.off[hs->arr] = t.nonacc[hs->arr] = 1;
    if (hs->win) t.written[hs->win] = t.off[hs->win] = t.nonacc[hs->win] = 1;
  }
  return t;
}

static void untouch(Touch *t) {
  free(t->used), free(t->read), free(t->written), free(t->off), free(t->nonacc), free(t->plain);
}

// Two loops fuse when the second uses none of the first's results, and every array that one
// of them writes and both touch is touched by both at the loop index only (elementwise), or
// only accumulated into, all atomically (accumulations commute; once the loops are one, an
// element another iteration may hit needs atomics in both).
static bool fusable(const Fn *f, Node *const *def, const Node *a, const Node *b) {
  if (a->kind != IR_PAR || b->kind != IR_PAR ||
      !range_same(def, a->u.par.lo, a->u.par.hi, b->u.par.lo, b->u.par.hi) || a->u.par.nscans ||
      b->u.par.nscans)
    return false;
  Touch ta = touch(f, a), tb = touch(f, b);
  bool ok = !ta.written[0] && !tb.written[0];
  for (int r = 0; ok && r < a->u.par.nreds; r++)
    for (int k = 0; k < a->u.par.reds[r].nf; k++) ok &= !tb.used[a->u.par.reds[r].out[k]];
  for (int v = 1; ok && v < f->nvals; v++) {
    bool both = (ta.read[v] || ta.written[v]) && (tb.read[v] || tb.written[v]);
    bool commute = !ta.nonacc[v] && !tb.nonacc[v] && !ta.plain[v] && !tb.plain[v];
    if (both && (ta.written[v] || tb.written[v]) && (ta.off[v] || tb.off[v]) && !commute) ok = false;
  }
  untouch(&ta);
  untouch(&tb);
  return ok;
}

// The updates of a loop's histograms (not those of nested loops with histograms of their
// own: emit.c) name clause k + by.
static WalkNext renumber_update(Node *n, void *by) {
  if (n->kind == IR_UPDATE) n->u.mem.hist += *(int *)by;
  return n->kind == IR_PAR && n->u.par.nhists ? WALK_SKIP : WALK_INTO;
}

static void renumber_updates(Block *b, int by) {
  ir_walk(b, &(Walker){.pre = renumber_update, .ctx = &by});
}

// b's body runs after a's in the same iteration; b's index becomes a's.
static void merge(Fn *f, Node *a, const Node *b) {
  Arena *ar = f->arena;
  Block *ab = a->u.par.body;
  Block *bb = b->u.par.body;
  ir_replace_uses(bb, b->u.par.idx, a->u.par.idx);
  // a's yields, then b's; statements of b after a's
  int ay = ab->nyields;
  Val *ys = ARENA_ARRAY(ar, Val, ay + bb->nyields + 1);
  if (ay) memcpy(ys, ab->yields, sizeof(Val) * (size_t)ay);
  if (bb->nyields) memcpy(ys + ay, bb->yields, sizeof(Val) * (size_t)bb->nyields);
  for (int i = 0; i < bb->n; i++) block_push(ar, ab, bb->stmts[i]);
  ab->yields = ys;
  ab->nyields = ay + bb->nyields;
  Red *reds = ARENA_ARRAY(ar, Red, a->u.par.nreds + b->u.par.nreds + 1);
  if (a->u.par.nreds) memcpy(reds, a->u.par.reds, sizeof(Red) * (size_t)a->u.par.nreds);
  for (int r = 0; r < b->u.par.nreds; r++) {
    reds[a->u.par.nreds + r] = b->u.par.reds[r];
    reds[a->u.par.nreds + r].slot += ay;
  }
  a->u.par.reds = reds;
  a->u.par.nreds += b->u.par.nreds;
  // the comment names every pragma the loop comes from, unless they are the same loop's
  const char *pa = a->u.par.pragma ? a->u.par.pragma : "map", *pb = b->u.par.pragma ? b->u.par.pragma : "map";
  if (a->loc.line != b->loc.line) { // (a part of a loop: the whole loop's pragma, once)
    if (strstr(pb, PART_MARK)) pb = arena_strndup(ar, pb, (size_t)(strstr(pb, PART_MARK) - pb));
    if (strstr(pa, PART_MARK)) pa = arena_strndup(ar, pa, (size_t)(strstr(pa, PART_MARK) - pa));
    if (!strstr(pa, "(line ")) pa = arena_printf(ar, "%s (line %u)", pa, a->loc.line);
    const char *more = arena_printf(ar, "%s (line %u)", pb, b->loc.line);
    a->u.par.pragma = strstr(pa, more) ? pa : arena_printf(ar, "%s + %s", pa, more);
  } else if (strstr(pa, PART_MARK)) { // the parts of one loop, together again
    a->u.par.pragma = arena_strndup(ar, pa, (size_t)(strstr(pa, PART_MARK) - pa));
  }
  // the two-phase schedule of ACC_COLOR updates holds for the loops' own widths only
  // (without it they are atomic)
  if (a->u.par.color != b->u.par.color) a->u.par.color = 0;
  if (b->u.par.nwins) { // both loops' windows (an array in both: one window)
    Val *w = ARENA_ARRAY(ar, Val, a->u.par.nwins + b->u.par.nwins);
    int nw = a->u.par.nwins;
    if (nw) memcpy(w, a->u.par.wins, sizeof(Val) * (size_t)nw);
    for (int k = 0; k < b->u.par.nwins; k++) {
      int j = 0;
      while (j < nw && w[j] != b->u.par.wins[k]) j++;
      if (j == nw) w[nw++] = b->u.par.wins[k];
    }
    a->u.par.wins = w;
    a->u.par.nwins = nw;
  }
  // b's histograms follow a's
  Hist *hs = ARENA_ARRAY(ar, Hist, a->u.par.nhists + b->u.par.nhists + 1);
  if (a->u.par.nhists) memcpy(hs, a->u.par.hists, sizeof(Hist) * (size_t)a->u.par.nhists);
  if (b->u.par.nhists) memcpy(hs + a->u.par.nhists, b->u.par.hists, sizeof(Hist) * (size_t)b->u.par.nhists);
  renumber_updates(bb, a->u.par.nhists);
  a->u.par.hists = hs;
  a->u.par.nhists += b->u.par.nhists;
}

// The values n defines (its result, or the results of an if, a loop, a parallel loop).
static bool defines_needed(const Node *n, const unsigned char *need) {
  if (n->out && need[n->out]) return true;
  switch (n->kind) {
  case IR_EXT:
    for (int i = 0; i < n->u.ext.nouts; i++)
      if (need[n->u.ext.outs[i]]) return true;
    break;
  case IR_IF:
    for (int i = 0; i < n->u.ifs.nouts; i++)
      if (need[n->u.ifs.outs[i]]) return true;
    break;
  case IR_LOOP:
    for (int i = 0; i < n->u.loop.ncarry; i++)
      if (need[n->u.loop.outs[i]]) return true;
    break;
  case IR_PAR:
    for (int r = 0; r < n->u.par.nreds; r++)
      for (int k = 0; k < n->u.par.reds[r].nf; k++)
        if (need[n->u.par.reds[r].out[k]]) return true;
    for (int r = 0; r < n->u.par.nscans; r++)
      for (int k = 0; k < n->u.par.scans[r].nf; k++)
        if (need[n->u.par.scans[r].out[k]]) return true;
    break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_COLL: case IR_RETURN:
    break;
  }
  return false;
}

// Can loop n (whose touches are tn) run before statement s?  Neither may write memory the
// other touches.
static bool independent(const Fn *f, const Node *s, const Touch *tn) {
  Touch ts = touch_new(f, 0);
  touch_stmt(&ts, s);
  bool ok = !ts.written[0];
  for (int v = 1; ok && v < f->nvals; v++)
    if (((ts.written[v] && (tn->read[v] || tn->written[v])) || (tn->written[v] && ts.read[v])) &&
        (ts.nonacc[v] || tn->nonacc[v]))
      ok = false; // (accumulations into the same array commute)
  untouch(&ts);
  return ok;
}

// Looks for an earlier loop of out[0..k) that loop n can fuse into.  n moves up past the
// statements it does not depend on; the plain arithmetic it uses (constants, bounds) moves
// with it, before the loop it joins.  Returns whether n was fused.
static bool fuse_up(Fn *f, Node **out, int k, Node *n, Node *const *def) {
  unsigned char *need = calloc((size_t)f->nvals, 1);
  unsigned char *carried = calloc((size_t)k + 1, 1);
  Touch tn = touch(f, n);
  Touch tc = touch_new(f, 0); // what the carried allocations and loops touch
  for (int v = 1; v < f->nvals; v++) need[v] = tn.used[v];
  bool fused = false;
  for (int j = k - 1; j >= 0; j--) {
    Node *s = out[j];
    Val a = s->kind == IR_ALLOC ? s->out : 0; // (an array n or a carried statement touches)
    bool needed = defines_needed(s, need) ||
                  (a && (tn.read[a] || tn.written[a] || tc.read[a] || tc.written[a]));
    if (needed && s->kind <= IR_CAST) { // n needs what s computes: s moves up with n
      carried[j] = 1;
      Touch ts = touch_new(f, 0);
      touch_stmt(&ts, s); // its operands are needed too
      for (int v = 1; v < f->nvals; v++) need[v] |= ts.used[v];
      untouch(&ts);
      continue;
    }
    bool past = !needed && independent(f, s, &tc); // (the carried statements may go before s)
    if (past && fusable(f, def, s, n)) {
      // out[0..j), the arithmetic n needs, s with n, then the others it moved past
      Node **tmp = malloc(sizeof(Node *) * (size_t)(k - j));
      int m = 0;
      for (int i = j + 1; i < k; i++)
        if (carried[i]) tmp[m++] = out[i];
      tmp[m++] = s;
      for (int i = j + 1; i < k; i++)
        if (!carried[i]) tmp[m++] = out[i];
      memcpy(out + j, tmp, sizeof(Node *) * (size_t)m);
      free(tmp);
      merge(f, s, n);
      fused = true;
      break;
    }
    if (!needed && !past) break;
    if (!needed && independent(f, s, &tn)) continue; // n moves past s
    // n needs s: an allocation it uses, or a loop that reduces nothing and fills memory n
    // reads (a hist's bins set to the neutral element before it), moves up with n where it
    // can go past everything it passes, the loop n joins included (f_vjp of hist(*): the
    // zero counts' pass joins the primal's); anything else keeps n after it
    if (s->kind != IR_ALLOC && (s->kind != IR_PAR || s->u.par.nreds || s->u.par.nscans)) break;
    carried[j] = 1;
    Touch ts = touch_new(f, 0);
    touch_stmt(&ts, s);
    for (int v = 1; v < f->nvals; v++) need[v] |= ts.used[v];
    untouch(&ts);
    touch_stmt(&tc, s);
  }
  untouch(&tn);
  untouch(&tc);
  free(need);
  free(carried);
  return fused;
}

static bool same_swap(const Node *a, const Node *b) {
  return a->kind == IR_COPY && b->kind == IR_COPY && a->u.copy.swap && b->u.copy.swap &&
         a->u.copy.dst == b->u.copy.dst && a->u.copy.src == b->u.copy.src &&
         a->u.copy.n == b->u.copy.n && a->u.copy.off == b->u.copy.off &&
         a->u.copy.doff == b->u.copy.doff;
}

// Fuses each loop of a block into an earlier one where that is safe.
static void fuse_block(Fn *f, Block *b, Node *const *def) {
  int k = 0;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_IF) {
      fuse_block(f, n->u.ifs.then, def);
      fuse_block(f, n->u.ifs.els, def);
    }
    if (n->kind == IR_LOOP) fuse_block(f, n->u.loop.body, def);
    if (n->kind == IR_PAR && fuse_up(f, b->stmts, k, n, def)) continue;
    if (k && same_swap(b->stmts[k - 1], n)) { // (a loop that moved up left two swaps
      k--;                                      // back to back: they undo each other)
      continue;
    }
    b->stmts[k++] = n;
  }
  b->n = k;
}

// ---- common subexpressions ----

static bool same_op(const Node *x, const Node *y, const Val *rep) {
  if (x->kind != y->kind || x->out == 0 || y->out == 0) return false;
  switch (x->kind) {
  case IR_CONST: return true; // the literal is compared by same_value
  case IR_CAST: return rep[x->u.cast.a] == rep[y->u.cast.a]; // types compared later
  case IR_UNOP: return x->u.un.op == y->u.un.op && rep[x->u.un.a] == rep[y->u.un.a];
  case IR_BINOP:
    return x->u.bin.op == y->u.bin.op && rep[x->u.bin.a] == rep[y->u.bin.a] &&
           rep[x->u.bin.b] == rep[y->u.bin.b];
  case IR_CALL:
    return x->u.call.fn == y->u.call.fn && rep[x->u.call.a] == rep[y->u.call.a] &&
           rep[x->u.call.b] == rep[y->u.call.b] && rep[x->u.call.c] == rep[y->u.call.c];
  case IR_READ:
    return rep[x->u.mem.arr] == rep[y->u.mem.arr] && rep[x->u.mem.idx] == rep[y->u.mem.idx];
  case IR_EXT: // (a call of a function adsoac does not see: made as often as the source does)
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC:
  case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN:
    return false; // effects, and statements that are not one operation
  }
  UNREACHABLE();
}

typedef struct {
  const Fn *f;
  Val *rep;          // rep[v]: the value that computes the same as v
  const Node **seen; // available expressions of the current block (and its enclosing ones)
  int nseen, cap;
  Val *tried;        // values mapped by a comparison of two ifs in progress (undone if unequal)
  int ntried, captried;
  // seen[] by hash (statements other than ifs): head[h & mask] is the last index seen with
  // that hash, next[i] the one before i; a linear search made a block of n statements O(n^2)
  int *head, *next;
  unsigned *hash;
  int mask;
} Cse;

static void try_rep(Cse *c, Val v, Val to) {
  if (c->ntried == c->captried) {
    c->captried = c->captried ? 2 * c->captried : 64;
    c->tried = realloc(c->tried, sizeof(Val) * (size_t)c->captried);
  }
  c->tried[c->ntried++] = v;
  c->rep[v] = to;
}

static void cse_block(Cse *c, Block *b);
static void see(Cse *c, const Node *n);
static void unsee(Cse *c, int mark);

// A write, a loop or a memory statement (the walk goes into ifs only).
static WalkNext effect(Node *n, void *ctx) {
  if (n->kind == IR_IF) return WALK_INTO;
  return n->kind > IR_READ ? WALK_STOP : WALK_SKIP;
}

// Does b write memory (or contain a loop)?
static bool block_effects(const Block *b) {
  return ir_walk(b, &(Walker){.pre = effect});
}

typedef struct {
  const Cse *c;
  Val arr;
} ReadOf;

// A read of arr (the walk goes into ifs only).
static WalkNext read_of(Node *n, void *ctx) {
  const ReadOf *r = ctx;
  if (n->kind == IR_READ && r->c->rep[n->u.mem.arr] == r->c->rep[r->arr]) return WALK_STOP;
  return n->kind == IR_IF ? WALK_INTO : WALK_SKIP;
}

// Does n (an available expression: a read, or an if of them) read arr?
static bool reads(const Cse *c, const Node *n, Val arr) {
  return ir_walk_node(n, &(Walker){.pre = read_of, .ctx = &(ReadOf){c, arr}});
}

static void kill_reads(Cse *c, Val arr) {
  for (int i = 0; i < c->nseen; i++)
    if (c->seen[i] && reads(c, c->seen[i], arr)) c->seen[i] = NULL;
}

static WalkNext kill_write(Node *n, void *c) {
  if (n->kind == IR_WRITE || n->kind == IR_ACC || n->kind == IR_UPDATE) kill_reads(c, n->u.mem.arr);
  if (n->kind == IR_COPY || n->kind == IR_SORT) {
    kill_reads(c, n->u.copy.dst);
    if (n->u.copy.swap) kill_reads(c, n->u.copy.src);
  }
  if (n->kind == IR_COLL) kill_reads(c, coll_writes(n));
  if (n->kind == IR_PAR)
    for (int h = 0; h < n->u.par.nhists; h++) {
      kill_reads(c, n->u.par.hists[h].arr);
      if (n->u.par.hists[h].win) kill_reads(c, n->u.par.hists[h].win);
    }
  return WALK_INTO;
}

// Forgets the reads of every array b writes.
static void kill_writes_in(Cse *c, const Block *b) {
  ir_walk(b, &(Walker){.pre = kill_write, .ctx = c});
}

static void rename_operands(Cse *c, Node *n) {
  Val *r = c->rep;
  switch (n->kind) {
  case IR_UNOP: n->u.un.a = r[n->u.un.a]; break;
  case IR_BINOP: n->u.bin.a = r[n->u.bin.a], n->u.bin.b = r[n->u.bin.b]; break;
  case IR_CALL:
    n->u.call.a = r[n->u.call.a], n->u.call.b = r[n->u.call.b], n->u.call.c = r[n->u.call.c];
    break;
  case IR_CAST: n->u.cast.a = r[n->u.cast.a]; break;
  case IR_EXT:
    for (int k = 0; k < n->u.ext.nargs; k++) n->u.ext.args[k] = r[n->u.ext.args[k]];
    break;
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    n->u.mem.arr = r[n->u.mem.arr], n->u.mem.idx = r[n->u.mem.idx], n->u.mem.v = r[n->u.mem.v];
    break;
  case IR_IF: n->u.ifs.cond = r[n->u.ifs.cond]; break;
  case IR_COLL:
    n->u.coll.count = r[n->u.coll.count], n->u.coll.root = r[n->u.coll.root];
    n->u.coll.comm = r[n->u.coll.comm];
    break;
  case IR_CONST: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
  case IR_RETURN: break;
  }
}

// Equal for statements that same_value may find equal (their operands' representatives).
static unsigned value_hash(const Cse *c, const Node *n) {
  const Val *r = c->rep;
  uint64_t h = (uint64_t)n->kind * 0x9E3779B97F4A7C15u ^ (uint64_t)(uintptr_t)c->f->vals[n->out].type;
  uint64_t k[3] = {0, 0, 0};
  switch (n->kind) {
  case IR_CONST: memcpy(&k[0], &n->u.cst.f, sizeof(double)), k[1] = (uint64_t)n->u.cst.i; break;
  case IR_UNOP: k[0] = n->u.un.op, k[1] = r[n->u.un.a]; break;
  case IR_BINOP: k[0] = n->u.bin.op, k[1] = r[n->u.bin.a], k[2] = r[n->u.bin.b]; break;
  case IR_CALL:
    k[0] = n->u.call.fn, k[1] = r[n->u.call.a], k[2] = r[n->u.call.b] | (uint64_t)r[n->u.call.c] << 32;
    break;
  case IR_CAST: k[1] = r[n->u.cast.a]; break;
  case IR_READ: k[1] = r[n->u.mem.arr], k[2] = r[n->u.mem.idx]; break;
  case IR_EXT: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_PAR:
  case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN:
    break; // (an alloc: by kind only; same_op finds none equal)
  }
  for (int i = 0; i < 3; i++) h = (h ^ k[i]) * 0x100000001B3u + (h >> 29);
  return (unsigned)(h ^ (h >> 32));
}

static bool same_value(const Cse *c, const Node *s, const Node *n) {
  return same_op(s, n, c->rep) && c->f->vals[s->out].type == c->f->vals[n->out].type &&
         (n->kind != IR_CONST || (s->u.cst.f == n->u.cst.f && s->u.cst.i == n->u.cst.i));
}

static bool same_if(Cse *c, const Node *x, const Node *y);

// Do blocks x and y compute the same yields from the same operands?  Pure statements only;
// on success rep maps y's values to x's.  (The distributed parts of a loop compute the same
// branches; once fused, each branch is computed once.)
static bool same_block(Cse *c, const Block *x, const Block *y) {
  if (x->n != y->n || x->nyields != y->nyields) return false;
  for (int i = 0; i < x->n; i++) {
    const Node *a = x->stmts[i], *b = y->stmts[i];
    if (a->kind == IR_IF ? !same_if(c, a, b) : !a->out || !same_value(c, a, b)) return false;
    if (a->kind != IR_IF) try_rep(c, b->out, a->out);
  }
  for (int i = 0; i < x->nyields; i++)
    if (c->rep[x->yields[i]] != c->rep[y->yields[i]]) return false;
  return true;
}

static bool same_if(Cse *c, const Node *x, const Node *y) {
  if (x->kind != IR_IF || y->kind != IR_IF || x->u.ifs.nouts != y->u.ifs.nouts ||
      c->rep[x->u.ifs.cond] != c->rep[y->u.ifs.cond] || !same_block(c, x->u.ifs.then, y->u.ifs.then) ||
      !same_block(c, x->u.ifs.els, y->u.ifs.els))
    return false;
  for (int i = 0; i < x->u.ifs.nouts; i++) try_rep(c, y->u.ifs.outs[i], x->u.ifs.outs[i]);
  return true;
}

static bool replace_if(Cse *c, const Node *x, const Node *y) {
  c->ntried = 0;
  if (same_if(c, x, y)) return true;
  for (int i = 0; i < c->ntried; i++) c->rep[c->tried[i]] = c->tried[i];
  return false;
}

static void cse_node(Cse *c, Node *n) {
  rename_operands(c, n);
  if (n->kind == IR_WRITE || n->kind == IR_ACC || n->kind == IR_UPDATE) kill_reads(c, n->u.mem.arr);
  if (n->kind == IR_IF) {
    // an earlier if of the same block computing the same: its outs replace n's
    for (int i = 0; i < c->nseen; i++)
      if (c->seen[i] && c->seen[i]->kind == IR_IF && replace_if(c, c->seen[i], n)) return;

    int mark = c->nseen; // what a branch computes is not available after it
    cse_block(c, n->u.ifs.then);
    unsee(c, mark);
    cse_block(c, n->u.ifs.els);
    unsee(c, mark);
    kill_writes_in(c, n->u.ifs.then);
    kill_writes_in(c, n->u.ifs.els);
    if (!block_effects(n->u.ifs.then) && !block_effects(n->u.ifs.els)) see(c, n);
    return;
  }
  if (n->kind == IR_LOOP || n->kind == IR_PAR || n->kind == IR_COPY || n->kind == IR_SORT ||
      n->kind == IR_COLL) {
    // not entered (its own scope); what it writes is not available after it (a read of an
    // element before a nested loop that updates it is not the read after it)
    kill_writes_in(c, &(Block){&n, 1, 1, NULL, 0});
    return;
  }
  if (!n->out) return;
  if (c->head)
    for (int i = c->head[value_hash(c, n) & (unsigned)c->mask]; i >= 0; i = c->next[i]) {
      const Node *s = c->seen[i];
      if (s && s->kind != IR_IF && same_value(c, s, n)) {
        c->rep[n->out] = s->out;
        return;
      }
    }
  see(c, n);
}

static void see(Cse *c, const Node *n) {
  if (c->nseen == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->seen = realloc(c->seen, sizeof(Node *) * (size_t)c->cap);
    c->next = realloc(c->next, sizeof(int) * (size_t)c->cap);
    c->hash = realloc(c->hash, sizeof(unsigned) * (size_t)c->cap);
    if (!c->seen || !c->next || !c->hash) diag_internal(__FILE__, __LINE__, "out of memory");
    if (c->cap > c->mask + 1) { // a table of at least cap buckets, rehashed
      free(c->head);
      c->mask = 2 * c->cap - 1;
      c->head = malloc(sizeof(int) * (size_t)(c->mask + 1));
      if (!c->head) diag_internal(__FILE__, __LINE__, "out of memory");
      for (int h = 0; h <= c->mask; h++) c->head[h] = -1;
      for (int i = 0; i < c->nseen; i++) {
        int h = (int)(c->hash[i] & (unsigned)c->mask);
        c->next[i] = c->head[h];
        c->head[h] = i;
      }
    }
  }
  int i = c->nseen++;
  c->seen[i] = n;
  c->hash[i] = n->kind == IR_IF ? 0 : value_hash(c, n);
  int h = (int)(c->hash[i] & (unsigned)c->mask);
  c->next[i] = c->head[h];
  c->head[h] = i;
}

// Forgets what was seen from index mark on (the newest first: they head their chains).
static void unsee(Cse *c, int mark) {
  for (int i = c->nseen - 1; i >= mark; i--) c->head[c->hash[i] & (unsigned)c->mask] = c->next[i];
  c->nseen = mark;
}

static void cse_free(Cse *c) {
  free(c->seen);
  free(c->tried);
  free(c->head);
  free(c->next);
  free(c->hash);
}

static void cse_block(Cse *c, Block *b) {
  for (int i = 0; i < b->n; i++) cse_node(c, b->stmts[i]);
  for (int i = 0; i < b->nyields; i++) b->yields[i] = c->rep[b->yields[i]];
}

// Each loop body separately (values do not cross into kernels more than they must).
static WalkNext cse_loop(Node *n, void *ctx) {
  if (n->kind != IR_PAR) return WALK_INTO;
  Cse c = *(Cse *)ctx; // (f and rep)
  cse_block(&c, n->u.par.body);
  cse_free(&c);
  return WALK_SKIP;
}

// ---- accumulations ----

static WalkNext touch_of(Node *n, void *arr) {
  switch (n->kind) {
  case IR_READ: case IR_WRITE: case IR_UPDATE: return n->u.mem.arr == *(Val *)arr ? WALK_STOP : WALK_INTO;
  case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN:
    return WALK_STOP;
  case IR_ACC: // accumulations commute
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_IF: case IR_LOOP:
  case IR_PAR:
    return WALK_INTO;
  }
  UNREACHABLE();
}

// Does n read or write arr (other than by accumulating into it)?
static bool node_touches(const Node *n, Val arr) {
  return ir_walk_node(n, &(Walker){.pre = touch_of, .ctx = &arr});
}

// acc a[i] += x; ...; acc a[i] += y  (nothing between reads or writes a; accumulating
// into it is fine: accumulations commute)  =>  ...; acc a[i] += x + y.
// The fused parts of a loop each accumulate into the same adjoint element.
static void merge_accs(Fn *f, Block *b) {
  Node **before = calloc((size_t)b->n + 1, sizeof(Node *)); // an add to insert before stmt j
  bool *gone = calloc((size_t)b->n + 1, sizeof(bool));
  int extra = 0;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_IF) merge_accs(f, n->u.ifs.then), merge_accs(f, n->u.ifs.els);
    if (n->kind == IR_PAR) merge_accs(f, n->u.par.body);
    if (n->kind == IR_LOOP) merge_accs(f, n->u.loop.body);
    for (int j = i + 1; n->kind == IR_ACC && n->u.mem.mode == ACC_PLAIN && j < b->n; j++) {
      Node *m = b->stmts[j];
      if (m->kind == IR_ACC && m->u.mem.mode == ACC_PLAIN && m->u.mem.arr == n->u.mem.arr &&
          m->u.mem.idx == n->u.mem.idx && !before[j] &&
          val_type(f, m->u.mem.v) == val_type(f, n->u.mem.v)) {
        Node *add = node_new(f->arena, IR_BINOP, m->loc);
        add->u.bin.op = BIN_ADD;
        add->u.bin.a = n->u.mem.v;
        add->u.bin.b = m->u.mem.v;
        add->out = fn_val(f, val_type(f, m->u.mem.v), NULL);
        m->u.mem.v = add->out;
        before[j] = add;
        gone[i] = true;
        extra++;
        break;
      }
      if (node_touches(m, n->u.mem.arr)) break;
    }
  }
  if (extra) {
    Node **stmts = ARENA_ARRAY(f->arena, Node *, b->n + extra);
    int k = 0;
    for (int i = 0; i < b->n; i++) {
      if (before[i]) stmts[k++] = before[i];
      if (!gone[i]) stmts[k++] = b->stmts[i];
    }
    b->stmts = stmts;
    b->n = b->cap = k;
  }
  free(before);
  free(gone);
}

static bool is_zero(const Fn *f, Val v) {
  const Node *d = f->defs[v];
  return d && d->kind == IR_CONST && ty_is_float(f->vals[v].type) && d->u.cst.f == 0.0;
}

// Two sums from zero whose results are only added together, s = s1 + s2, become one sum
// of both contributions (the fused parts of a loop each sum an adjoint of the same value).
// owner[v]: the loop whose reduction gives v (found directly: a search of the loops before
// every add made a long function quadratic).
static void merge_sums(Fn *f, Block *b, int *uses, Node **owner) {
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_IF)
      merge_sums(f, n->u.ifs.then, uses, owner), merge_sums(f, n->u.ifs.els, uses, owner);
    if (n->kind == IR_LOOP) merge_sums(f, n->u.loop.body, uses, owner);
    if (n->kind == IR_PAR)
      for (int r = 0; r < n->u.par.nreds; r++)
        for (int k = 0; k < n->u.par.reds[r].nf; k++) owner[n->u.par.reds[r].out[k]] = n;
    if (n->kind != IR_BINOP || n->u.bin.op != BIN_ADD || uses[n->u.bin.a] != 1 || uses[n->u.bin.b] != 1)
      continue;
    for (Node *p = owner[n->u.bin.a]; p && p == owner[n->u.bin.b]; p = NULL) {
      bool here = false; // a loop of this block, before n
      for (int j = 0; j < i && !here; j++) here = b->stmts[j] == p;
      if (!here) continue;
      int r1 = -1, r2 = -1;
      for (int r = 0; r < p->u.par.nreds; r++) {
        const Red *red = &p->u.par.reds[r];
        if (red->op != RED_ADD || red->nf != 1 || !is_zero(f, red->init[0])) continue;
        if (red->out[0] == n->u.bin.a) r1 = r;
        if (red->out[0] == n->u.bin.b) r2 = r;
      }
      if (r1 < 0 || r2 < 0) continue;
      // r1 sums both contributions; r2's yield is left unused (dead code removes it)
      Block *body = p->u.par.body;
      Red *a = &p->u.par.reds[r1], *c = &p->u.par.reds[r2];
      Node *add = node_new(f->arena, IR_BINOP, n->loc);
      add->u.bin.op = BIN_ADD;
      add->u.bin.a = body->yields[a->slot];
      add->u.bin.b = body->yields[c->slot];
      add->out = fn_val(f, val_type(f, n->out), NULL);
      block_push(f->arena, body, add);
      body->yields[a->slot] = add->out;
      ir_replace_uses(f->body, n->out, a->out[0]); // the add is dead now
      uses[c->out[0]] = 0;
    }
  }
}

void fuse_loops(Fn *f) {
  Node **def = calloc((size_t)f->nvals, sizeof(Node *));
  ir_defs(f->body, def);
  fuse_block(f, f->body, def);
  free(def);
  Val *rep = malloc(sizeof(Val) * (size_t)f->nvals);
  for (int v = 0; v < f->nvals; v++) rep[v] = (Val)v;
  Cse top = {f, rep}; // the function's own statements (not loops)
  cse_block(&top, f->body);
  cse_free(&top);
  ir_walk(f->body, &(Walker){.pre = cse_loop, .ctx = &(Cse){f, rep}});
  free(rep);
  merge_accs(f, f->body);
  int *uses = calloc((size_t)f->nvals, sizeof(int));
  count_uses(f, uses);
  Node **owner = calloc((size_t)f->nvals, sizeof(Node *));
  merge_sums(f, f->body, uses, owner);
  free(owner);
  free(uses);
  simplify_dce(f);
}
