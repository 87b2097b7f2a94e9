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
} Touch;

static void touch_block(Touch *t, const Block *b);

static void u(Touch *t, Val v) {
  if (v) t->used[v] = 1;
}

static void touch_node(Touch *t, const Node *n) {
  switch (n->kind) {
  case IR_CONST: break;
  case IR_UNOP: u(t, n->u.un.a); break;
  case IR_BINOP: u(t, n->u.bin.a), u(t, n->u.bin.b); break;
  case IR_CALL: u(t, n->u.call.a), u(t, n->u.call.b); break;
  case IR_CAST: u(t, n->u.cast.a); break;
  case IR_READ:
    u(t, n->u.mem.idx);
    t->read[n->u.mem.arr] = 1;
    if (n->u.mem.idx != t->idx) t->off[n->u.mem.arr] = 1;
    break;
  case IR_WRITE: case IR_ACC: case IR_UPDATE:
    u(t, n->u.mem.idx), u(t, n->u.mem.v);
    t->written[n->u.mem.arr] = 1;
    if (n->u.mem.idx != t->idx) t->off[n->u.mem.arr] = 1;
    break;
  case IR_IF:
    u(t, n->u.ifs.cond);
    touch_block(t, n->u.ifs.then);
    touch_block(t, n->u.ifs.els);
    break;
  case IR_LOOP:
    u(t, n->u.loop.lo), u(t, n->u.loop.hi);
    for (int i = 0; i < n->u.loop.ncarry; i++) u(t, n->u.loop.init[i]);
    touch_block(t, n->u.loop.body);
    break;
  case IR_PAR:
    u(t, n->u.par.lo), u(t, n->u.par.hi);
    touch_block(t, n->u.par.body);
    break;
  case IR_ALLOC: case IR_COPY: case IR_FREE: case IR_RETURN:
    t->written[0] = 1; // never inside a loop body; refuse to fuse
    break;
  }
}

static void touch_block(Touch *t, const Block *b) {
  for (int i = 0; i < b->n; i++) touch_node(t, b->stmts[i]);
  for (int i = 0; i < b->nyields; i++) u(t, b->yields[i]);
}

static Touch touch(const Fn *f, const Node *p) {
  size_t nv = (size_t)f->nvals;
  Touch t = {f, calloc(nv, 1), calloc(nv, 1), calloc(nv, 1), calloc(nv, 1), p->u.par.idx};
  touch_block(&t, p->u.par.body);
  for (int r = 0; r < p->u.par.nreds; r++)
    for (int k = 0; k < p->u.par.reds[r].nf; k++) u(&t, p->u.par.reds[r].init[k]);
  return t;
}

static void untouch(Touch *t) {
  free(t->used), free(t->read), free(t->written), free(t->off);
}

// Two loops fuse when the second uses none of the first's results, and every array that one
// of them writes and both touch is touched by both at the loop index only (elementwise).
static bool fusable(const Fn *f, Node *const *def, const Node *a, const Node *b) {
  if (a->kind != IR_PAR || b->kind != IR_PAR || !index_same(def, a->u.par.lo, b->u.par.lo) ||
      !index_same(def, a->u.par.hi, b->u.par.hi) || a->u.par.nscans || b->u.par.nscans ||
      a->u.par.nhists || b->u.par.nhists)
    return false;
  Touch ta = touch(f, a), tb = touch(f, b);
  bool ok = !ta.written[0] && !tb.written[0];
  for (int r = 0; ok && r < a->u.par.nreds; r++)
    for (int k = 0; k < a->u.par.reds[r].nf; k++) ok &= !tb.used[a->u.par.reds[r].out[k]];
  for (int v = 1; ok && v < f->nvals; v++) {
    bool both = (ta.read[v] || ta.written[v]) && (tb.read[v] || tb.written[v]);
    if (both && (ta.written[v] || tb.written[v]) && (ta.off[v] || tb.off[v])) ok = false;
  }
  untouch(&ta);
  untouch(&tb);
  return ok;
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
  if (a->loc.line != b->loc.line) {
    if (!strstr(pa, "(line ")) pa = arena_printf(ar, "%s (line %u)", pa, a->loc.line);
    a->u.par.pragma = arena_printf(ar, "%s + %s (line %u)", pa, pb, b->loc.line);
  }
}

static bool is_const(const Node *n) {
  return n->kind == IR_CONST;
}

// Fuses runs of adjacent loops in a block (constants between them move before the first).
static void fuse_block(Fn *f, Block *b, Node *const *def) {
  int k = 0;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_IF) {
      fuse_block(f, n->u.ifs.then, def);
      fuse_block(f, n->u.ifs.els, def);
    }
    if (n->kind == IR_LOOP) fuse_block(f, n->u.loop.body, def);
    if (n->kind == IR_PAR) {
      // the previous loop, past constants
      int j = k - 1;
      while (j >= 0 && is_const(b->stmts[j])) j--;
      if (j >= 0 && fusable(f, def, b->stmts[j], n)) {
        Node *first = b->stmts[j]; // the constants move before the fused loop
        for (int m = j; m < k - 1; m++) b->stmts[m] = b->stmts[m + 1];
        b->stmts[k - 1] = first;
        merge(f, first, n);
        continue;
      }
    }
    b->stmts[k++] = n;
  }
  b->n = k;
}

// ---- common subexpressions ----

static bool same_op(const Node *x, const Node *y, const Val *rep) {
  if (x->kind != y->kind || x->out == 0 || y->out == 0) return false;
  if (x->kind != IR_CONST && x->kind != IR_READ && x->kind != IR_CALL && x->kind != IR_CAST &&
      x->kind != IR_UNOP && x->kind != IR_BINOP)
    return false;
  if (x->kind == IR_CAST) return rep[x->u.cast.a] == rep[y->u.cast.a]; // types compared later
  switch (x->kind) {
  case IR_UNOP: return x->u.un.op == y->u.un.op && rep[x->u.un.a] == rep[y->u.un.a];
  case IR_BINOP:
    return x->u.bin.op == y->u.bin.op && rep[x->u.bin.a] == rep[y->u.bin.a] &&
           rep[x->u.bin.b] == rep[y->u.bin.b];
  case IR_CALL:
    return x->u.call.fn == y->u.call.fn && rep[x->u.call.a] == rep[y->u.call.a] &&
           rep[x->u.call.b] == rep[y->u.call.b];
  case IR_READ:
    return rep[x->u.mem.arr] == rep[y->u.mem.arr] && rep[x->u.mem.idx] == rep[y->u.mem.idx];
  default: return false;
  }
}

typedef struct {
  const Fn *f;
  Val *rep;          // rep[v]: the value that computes the same as v
  const Node **seen; // available expressions of the current block (and its enclosing ones)
  int nseen, cap;
} Cse;

static void cse_block(Cse *c, Block *b);

static void kill_reads(Cse *c, Val arr) {
  for (int i = 0; i < c->nseen; i++)
    if (c->seen[i] && c->seen[i]->kind == IR_READ && c->rep[c->seen[i]->u.mem.arr] == c->rep[arr])
      c->seen[i] = NULL;
}

static void kill_writes_in(Cse *c, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_WRITE || n->kind == IR_ACC || n->kind == IR_UPDATE) kill_reads(c, n->u.mem.arr);
    if (n->kind == IR_IF) kill_writes_in(c, n->u.ifs.then), kill_writes_in(c, n->u.ifs.els);
    if (n->kind == IR_LOOP) kill_writes_in(c, n->u.loop.body);
    if (n->kind == IR_PAR) kill_writes_in(c, n->u.par.body);
  }
}

static void rename_operands(Cse *c, Node *n) {
  Val *r = c->rep;
  switch (n->kind) {
  case IR_UNOP: n->u.un.a = r[n->u.un.a]; break;
  case IR_BINOP: n->u.bin.a = r[n->u.bin.a], n->u.bin.b = r[n->u.bin.b]; break;
  case IR_CALL: n->u.call.a = r[n->u.call.a], n->u.call.b = r[n->u.call.b]; break;
  case IR_CAST: n->u.cast.a = r[n->u.cast.a]; break;
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    n->u.mem.arr = r[n->u.mem.arr], n->u.mem.idx = r[n->u.mem.idx], n->u.mem.v = r[n->u.mem.v];
    break;
  case IR_IF: n->u.ifs.cond = r[n->u.ifs.cond]; break;
  case IR_CONST: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_FREE:
  case IR_RETURN: break;
  }
}

static void cse_node(Cse *c, Node *n) {
  rename_operands(c, n);
  if (n->kind == IR_WRITE || n->kind == IR_ACC || n->kind == IR_UPDATE) kill_reads(c, n->u.mem.arr);
  if (n->kind == IR_IF) {
    int mark = c->nseen; // what a branch computes is not available after it
    cse_block(c, n->u.ifs.then);
    c->nseen = mark;
    cse_block(c, n->u.ifs.els);
    c->nseen = mark;
    kill_writes_in(c, n->u.ifs.then);
    kill_writes_in(c, n->u.ifs.els);
    return;
  }
  if (n->kind == IR_LOOP || n->kind == IR_PAR) return; // not entered: its own scope
  if (!n->out) return;
  for (int i = 0; i < c->nseen; i++) {
    const Node *s = c->seen[i];
    if (s && same_op(s, n, c->rep) && c->f->vals[s->out].type == c->f->vals[n->out].type &&
        (n->kind != IR_CONST || (s->u.cst.f == n->u.cst.f && s->u.cst.i == n->u.cst.i))) {
      c->rep[n->out] = s->out;
      return;
    }
  }
  if (c->nseen == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->seen = realloc(c->seen, sizeof(Node *) * (size_t)c->cap);
  }
  c->seen[c->nseen++] = n;
}

static void cse_block(Cse *c, Block *b) {
  for (int i = 0; i < b->n; i++) cse_node(c, b->stmts[i]);
  for (int i = 0; i < b->nyields; i++) b->yields[i] = c->rep[b->yields[i]];
}

// Each loop body separately (values do not cross into kernels more than they must).
static void cse_loops(Fn *f, Block *b, Val *rep) {
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_PAR) {
      Cse c = {f, rep, NULL, 0, 0};
      cse_block(&c, n->u.par.body);
      free(c.seen);
    }
    if (n->kind == IR_IF) cse_loops(f, n->u.ifs.then, rep), cse_loops(f, n->u.ifs.els, rep);
    if (n->kind == IR_LOOP) cse_loops(f, n->u.loop.body, rep);
  }
}

void fuse_loops(Fn *f) {
  Node **def = calloc((size_t)f->nvals, sizeof(Node *));
  ir_defs(f->body, def);
  fuse_block(f, f->body, def);
  free(def);
  Val *rep = malloc(sizeof(Val) * (size_t)f->nvals);
  for (int v = 0; v < f->nvals; v++) rep[v] = (Val)v;
  cse_loops(f, f->body, rep);
  free(rep);
  simplify_dce(f);
  ir_verify(f, "fuse");
}
