// parser/lower_priv.c: scratch arrays that the iterations of a parallel loop share in C but
// may each have their own (language.md §6; issue 18 item 2).
//
// A legacy kernel allocates its scratch once, before the loop, and every iteration writes it
// before it reads it (a mixture model's per-point xcentered[d]).  In C the iterations then
// never see each other's values, and the loop is as parallel as with OpenMP's private(x):
// here each iteration gets an array of its own (allocated at the start of its body, freed at
// its end) in place of the shared one.  Decided once the whole function is lowered, for every
// array the map check found written at elements that are not an iteration's own
// (pending_private): the array is privatized when
//   - in the loop's body, every read of it comes after a write of all of its elements in the
//     same iteration (a loop from 0 to its size writing each element), and
//   - nothing outside such loops reads it (after the loop it would hold the last iteration's
//     values);
// otherwise the dependence the map check found is reported.
#include <string.h>

#include "lower.h"

void pending_private(Lower *L, Node *par, Val arr, Loc w, Loc r, bool meet) {
  for (int k = 0; k < L->npending; k++)
    if (L->pending[k].par == par && L->pending[k].arr == arr) return;
  if (L->npending == L->cappending) {
    L->cappending = L->cappending ? 2 * L->cappending : 8;
    Pending *p = ARENA_ARRAY(L->a, Pending, L->cappending);
    if (L->npending) memcpy(p, L->pending, sizeof(Pending) * (size_t)L->npending);
    L->pending = p;
  }
  L->pending[L->npending++] = (Pending){par, arr, w, r, meet};
}

static Val strip(Node *const *def, Val v) {
  while (v && def[v] && def[v]->kind == IR_CAST) v = def[v]->u.cast.a;
  return v;
}

static bool is_zero(Node *const *def, Val v) {
  const Node *d = def[strip(def, v)];
  return d && d->kind == IR_CONST && d->u.cst.i == 0;
}

typedef struct {
  Val arr;
  bool found;
} Reads;

static WalkNext read_pre(Node *n, void *ctx) {
  Reads *r = ctx;
  if ((n->kind == IR_READ && n->u.mem.arr == r->arr) ||
      (n->kind == IR_COPY && (n->u.copy.src == r->arr || (n->u.copy.swap && n->u.copy.dst == r->arr))) ||
      (n->kind == IR_COLL && coll_reads(n, r->arr))) {
    r->found = true;
    return WALK_STOP;
  }
  return WALK_INTO;
}

static bool reads(const Node *n, Val arr) {
  Reads r = {arr, false};
  ir_walk_node(n, &(Walker){.pre = read_pre, .ctx = &r});
  return r.found;
}

// Does loop s write every element of arr (of n elements) in its iterations, at the top of its
// body, at its index (from 0 to n), reading it there only at that index after the write?
static bool covers(Lower *L, const Node *s, Val arr, Val n) {
  Node *const *def = L->fn->defs;
  Val idx, lo, hi;
  const Block *b;
  if (s->kind == IR_LOOP && !s->u.loop.exit)
    idx = s->u.loop.idx, lo = s->u.loop.lo, hi = s->u.loop.hi, b = s->u.loop.body;
  else if (s->kind == IR_PAR)
    idx = s->u.par.idx, lo = s->u.par.lo, hi = s->u.par.hi, b = s->u.par.body;
  else
    return false;
  if (!is_zero(def, lo) || !index_same(def, strip(def, hi), strip(def, n))) return false;
  Val at = 0;
  for (int i = 0; i < b->n; i++) {
    const Node *t = b->stmts[i];
    if (t->kind == IR_WRITE && t->u.mem.arr == arr) {
      Val w = strip(def, t->u.mem.idx);
      if (w != idx && !(def[w] && def[w]->kind == IR_BINOP && def[w]->u.bin.op == BIN_ADD &&
                        ((strip(def, def[w]->u.bin.a) == idx && is_zero(def, def[w]->u.bin.b)) ||
                         (strip(def, def[w]->u.bin.b) == idx && is_zero(def, def[w]->u.bin.a)))))
        return false;
      at = t->u.mem.idx;
      continue;
    }
    if (t->kind == IR_READ && t->u.mem.arr == arr) {
      if (!at || !index_same(def, at, t->u.mem.idx)) return false;
      continue;
    }
    if (reads(t, arr) || ir_writes(&(Block){(Node **)&b->stmts[i], 1, 1, NULL, 0}, arr))
      return false;
  }
  return at != 0;
}

// Is every read of arr in b preceded by a write of all of it, in b or (cov) before b?  bad: the
// first read that is not.
static bool covered(Lower *L, const Block *b, Val arr, Val n, bool cov, Loc *bad) {
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    if (!cov && covers(L, s, arr, n)) {
      cov = true;
      continue;
    }
    if (cov || !reads(s, arr)) continue;
    switch (s->kind) {
    case IR_LOOP: // each iteration writes it all before reading
      if (!covered(L, s->u.loop.body, arr, n, false, bad)) return false;
      break;
    case IR_PAR:
      if (!covered(L, s->u.par.body, arr, n, false, bad)) return false;
      break;
    case IR_IF:
      if (!covered(L, s->u.ifs.then, arr, n, false, bad) ||
          !covered(L, s->u.ifs.els, arr, n, false, bad))
        return false;
      break;
    case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ:
    case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT:
    case IR_FREE: case IR_COLL: case IR_RETURN:
      *bad = s->loc;
      return false;
    }
  }
  return true;
}

typedef struct {
  Lower *L;
  Val arr;
  Loc bad;
  bool found;
} Outside;

// A read of arr outside the bodies of the loops that may privatize it.
static WalkNext outside_pre(Node *n, void *ctx) {
  Outside *o = ctx;
  if (n->kind == IR_PAR)
    for (int k = 0; k < o->L->npending; k++)
      if (o->L->pending[k].par == n && o->L->pending[k].arr == o->arr) return WALK_SKIP;
  if ((n->kind == IR_READ && n->u.mem.arr == o->arr) ||
      (n->kind == IR_COPY && n->u.copy.src == o->arr) || (n->kind == IR_COLL && coll_reads(n, o->arr))) {
    o->bad = n->loc;
    o->found = true;
    return WALK_STOP;
  }
  return WALK_INTO;
}

static void report(Lower *L, const Pending *p, Loc bad, const char *why) {
  const char *name = L->fn->vals[p->arr].hint ? L->fn->vals[p->arr].hint : "the array";
  if (p->r.line && !p->meet) diag_note(p->r, "'%s' is also accessed here", name);
  if (bad.line) diag_note(bad, "%s", why);
  diag_error(p->w, arena_printf(L->a, "if every iteration writes all of '%s' before it reads "
             "it, write it in a loop from 0 to its size first; else give each iteration its own "
             "part of the array (%s + i * size), or split the loop", name, name),
             "iterations of the parallel loop %s each other through '%s', an array the "
             "function allocated: they write elements that are not their own, and it cannot "
             "be given to each iteration as its own copy", p->meet ? "depend on" : "may depend on",
             name);
}

void privatize(Lower *L) {
  for (int k = 0; k < L->npending; k++) {
    Pending *p = &L->pending[k];
    const Node *a = L->fn->defs[p->arr];
    Loc bad = {0};
    if (!covered(L, p->par->u.par.body, p->arr, a->u.alloc.n, false, &bad))
      report(L, p, bad, "this read may see an element written by another iteration (or not "
                        "yet in this one)");
    Outside o = {L, p->arr, {0}, false};
    ir_walk(L->fn->body, &(Walker){.pre = outside_pre, .ctx = &o});
    if (o.found) report(L, p, o.bad, "read here, outside the parallel loop");
  }
  for (int k = 0; k < L->npending; k++) { // each iteration's own copy
    Pending *p = &L->pending[k];
    diag_remark(p->par->loc, "'%s' privatized: each iteration writes all of it before it reads "
                "it, and gets a copy of its own", L->fn->vals[p->arr].hint);
    Block *body = p->par->u.par.body;
    Node *al = node_new(L->a, IR_ALLOC, p->par->loc);
    al->u.alloc.n = L->fn->defs[p->arr]->u.alloc.n;
    al->out = fn_val(L->fn, val_type(L->fn, p->arr), L->fn->vals[p->arr].hint);
    L->fn->defs[al->out] = al;
    ir_replace_uses(body, p->arr, al->out);
    block_insert(L->a, body, 0, al);
    Node *fr = node_new(L->a, IR_FREE, p->par->loc);
    fr->u.copy.dst = al->out;
    block_push(L->a, body, fr);
  }
}
