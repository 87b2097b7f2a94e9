// transform/distribute.c: loop distribution.
//
// A marked loop often does several things at once: elementwise writes, reductions with
// different operators, histogram updates.  Before differentiation each such loop is split
// along its dependence graph into one SOAC per thing it does, so that every part gets its
// own derivative rule:
//
//   par i { v = f(x[i]); s += v; m = max(m, v); y[i] = g(v); }
//     =>  par i reduce(+: s) { v = f(x[i]); yield v }
//         par i reduce(max: m) { v = f(x[i]); yield v }
//         par i { v = f(x[i]); y[i] = g(v) }
//
// Each part is a copy of the loop stripped of the other parts' effects; what a part does
// not need is then removed as dead code, and what several parts need is computed by each
// (redundant computation, not a temporary array).  After differentiation fuse.c merges
// the parts again (with their derivatives), and shares the common subexpressions, so
// neither the primal nor the gradient pays for the split.  `--no-fuse` shows the split.
//
// Order of the parts: reductions, then histograms, then the elementwise writes.  A part
// reads memory as the original iteration did, before the iteration's own writes: that holds
// because a loop is split only when every array that the loop both reads and writes is
// touched at the loop index only, outside nested loops, and read before it is written.
#include <stdlib.h>

#include "transform.h"

typedef struct {
  unsigned char *read, *written; // arrays read / written (write or hist update) in the body
  unsigned char *seen_write;     // written so far, in program order
  Val idx;
  bool ok;
  bool check; // the second walk: the accesses against the arrays the first found
  int depth;  // 0 at the loop's body and in its ifs; > 0 inside a nested loop (iterations repeat)
} Split;

static WalkNext split_node(Node *n, void *ctx) {
  Split *s = ctx;
  switch (n->kind) {
  case IR_READ: {
    Val a = n->u.mem.arr;
    if (!s->check) {
      s->read[a] = 1;
    } else if (s->written[a] && (s->depth || n->u.mem.idx != s->idx || s->seen_write[a])) {
      s->ok = false;
    }
    break;
  }
  case IR_WRITE: case IR_UPDATE: case IR_ACC: {
    Val a = n->u.mem.arr;
    if (!s->check) {
      s->written[a] = 1;
    } else {
      if (s->read[a] && (s->depth || n->u.mem.idx != s->idx)) s->ok = false;
      s->seen_write[a] = 1;
    }
    if (n->kind != IR_WRITE && s->depth) s->ok = false; // a nested loop's own histogram
    break;
  }
  case IR_LOOP: case IR_PAR: s->depth++; break;
  case IR_COLL: s->ok = false; break; // (never in a loop's body)
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_IF:
  case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_RETURN:
    break;
  }
  return WALK_INTO;
}

static void split_leave(Node *n, void *ctx) {
  if (n->kind == IR_LOOP || n->kind == IR_PAR) ((Split *)ctx)->depth--;
}

// Can the parts of loop n run one after another, reductions and histograms first?
static bool splittable(const Fn *f, const Node *n) {
  size_t nv = (size_t)f->nvals;
  Split s = {calloc(nv, 1), calloc(nv, 1), calloc(nv, 1), n->u.par.idx, true};
  Walker w = {.pre = split_node, .post = split_leave, .ctx = &s};
  ir_walk(n->u.par.body, &w);
  s.check = true;
  ir_walk(n->u.par.body, &w);
  free(s.read), free(s.written), free(s.seen_write);
  return s.ok;
}

static WalkNext is_write(Node *n, void *ctx) {
  return n->kind == IR_WRITE ? WALK_STOP : WALK_INTO;
}

static bool has_writes(const Block *b) {
  return ir_walk(b, &(Walker){.pre = is_write});
}

// Removes the effects that are not the part's: writes unless keep_writes, and the updates
// of every histogram but keep_hist (which becomes histogram 0).
static void strip(Block *b, bool keep_writes, int keep_hist) {
  int k = 0;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_WRITE && !keep_writes) continue;
    if (n->kind == IR_UPDATE) {
      if (n->u.mem.hist != keep_hist) continue;
      n->u.mem.hist = 0;
    }
    if (n->kind == IR_IF) strip(n->u.ifs.then, keep_writes, keep_hist), strip(n->u.ifs.els, keep_writes, keep_hist);
    if (n->kind == IR_LOOP) strip(n->u.loop.body, keep_writes, keep_hist);
    if (n->kind == IR_PAR) strip(n->u.par.body, keep_writes, -1);
    b->stmts[k++] = n;
  }
  b->n = k;
}

// A copy of loop n that does one part: reduction red, histogram hist, or the writes.
static Node *part(Fn *f, Block *into, const Node *n, int red, int hist, bool writes) {
  Val *map = calloc((size_t)f->nvals, sizeof(Val)); // indexed by the loop's values only
  for (Val v = 1; v < (Val)f->nvals; v++) map[v] = v; // outer values stay themselves
  Block one = {(Node **)&n, 1, 1, NULL, 0};
  Builder b = {f, into, n->loc};
  clone_block(&b, f, &one, map, false);
  free(map);
  Node *c = into->stmts[into->n - 1];
  // the part's reduction keeps the original results; the others are dropped with their yields
  Block *body = c->u.par.body;
  Val *ys = ARENA_ARRAY(f->arena, Val, body->nyields + 1);
  int ny = 0;
  if (red >= 0) {
    Red r = c->u.par.reds[red];
    r.out = n->u.par.reds[red].out;
    for (int k = 0; k < r.nf; k++) ys[ny++] = body->yields[r.slot + k];
    r.slot = 0;
    c->u.par.reds[0] = r;
  }
  c->u.par.nreds = red >= 0;
  body->yields = ys;
  body->nyields = ny;
  if (hist >= 0) c->u.par.hists[0] = c->u.par.hists[hist];
  c->u.par.nhists = hist >= 0;
  if (!writes) c->u.par.ninjective = 0;
  strip(body, writes, hist);
  // the comment says which part of the pragma this loop does (fuse.c drops it again)
  const char *what = "map";
  if (red >= 0) {
    const Red *r = &n->u.par.reds[red];
    what = arena_printf(f->arena, "reduce(%s: %s)", r->op == RED_USER ? r->user_fn : redop_name(r->op), r->var);
  } else if (hist >= 0) {
    const Hist *h = &n->u.par.hists[hist];
    what = arena_printf(f->arena, "hist(%s: %s)", h->op == RED_USER ? h->user_fn : redop_name(h->op), h->var);
  }
  c->u.par.pragma = arena_printf(f->arena, "%s" PART_MARK "%s", n->u.par.pragma ? n->u.par.pragma : "map", what);
  return c;
}

static void distribute_block(Fn *f, Block *b) {
  Block *out = block_new(f->arena);
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_IF) distribute_block(f, n->u.ifs.then), distribute_block(f, n->u.ifs.els);
    if (n->kind == IR_LOOP) distribute_block(f, n->u.loop.body);
    bool writes = n->kind == IR_PAR && has_writes(n->u.par.body);
    int parts = n->kind == IR_PAR ? n->u.par.nreds + n->u.par.nhists + writes : 0;
    if (parts < 2 || n->u.par.nscans || !splittable(f, n)) {
      block_push(f->arena, out, n);
      continue;
    }
    for (int r = 0; r < n->u.par.nreds; r++) part(f, out, n, r, -1, false);
    for (int h = 0; h < n->u.par.nhists; h++) part(f, out, n, -1, h, false);
    if (writes) part(f, out, n, -1, -1, true);
  }
  b->stmts = out->stmts;
  b->n = out->n;
  b->cap = out->cap;
}

void distribute_loops(Fn *f) {
  distribute_block(f, f->body);
  simplify_dce(f);
}
