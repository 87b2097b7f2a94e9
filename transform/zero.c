// transform/zero.c: temporaries that need no zeroing.
//
// A temporary array comes zeroed (adsoac_host_alloc, adsoac_dev_alloc): the adjoint arrays
// of the reverse sweep start at 0 and are accumulated into.  Where the first statement that
// touches a temporary is a parallel loop over all of it whose body writes (or accumulates
// into) element i at its top and touches the array nowhere else, every element is written
// before anything reads it: the allocation is marked `nozero` (the emitter skips the
// zeroing) and that first accumulation becomes a write (0 + v is v).  A scan's prefixes, a
// map's terms and the adjoints of a scan's prefixes are such arrays: each is as large as
// the input, and zeroing it cost one more pass over that much memory.
//
// Likewise a write to a temporary that its iteration does not read again, in a parallel loop
// after which the temporary is freed (an adjoint set to 0 once it is taken), goes.
//
// Only arrays that the function names nowhere but in memory statements qualify: no yield
// (a buffer swapped by a loop), no call, no collective, no field array of a struct.
#include <stdlib.h>
#include <string.h>

#include "transform.h"
#include "../analysis/analysis.h"

typedef struct {
  Node *n;
  unsigned char *bad; // arrays named somewhere other than an access to their elements
} Slots;

static void slot_use(Val *v, void *ctx) {
  Slots *s = ctx;
  Node *n = s->n;
  if (n->kind >= IR_READ && n->kind <= IR_UPDATE && v == &n->u.mem.arr) return;
  if ((n->kind == IR_COPY || n->kind == IR_SORT || n->kind == IR_FREE) &&
      (v == &n->u.copy.dst || v == &n->u.copy.src))
    return;
  for (int k = 0; n->kind == IR_PAR && k < n->u.par.nhists; k++)
    if (v == &n->u.par.hists[k].arr || v == &n->u.par.hists[k].win) return;
  s->bad[*v] = 1;
}

static WalkNext slot_node(Node *n, void *ctx) {
  Slots *s = ctx;
  s->n = n;
  ir_node_uses(n, slot_use, s);
  return WALK_INTO;
}

static void slot_yields(Block *b, void *ctx) {
  for (int i = 0; i < b->nyields; i++) ((Slots *)ctx)->bad[b->yields[i]] = 1;
}

typedef struct {
  const Fn *f;
  Node **def;
  const unsigned char *bad;
  unsigned char *temp; // arrays the function allocates
} Zero;

// v without a cast to a 64-bit signed integer that keeps its value ((long)n of an int n).
static Val unwiden(const Zero *z, Val v) {
  const Node *d = z->def[v];
  if (!d || d->kind != IR_CAST || !ty_is_int(z->f->vals[v].type)) return v;
  const Type *from = z->f->vals[d->u.cast.a].type;
  if (!ty_is_int(from)) return v;
  IntInfo to = ty_int_info(z->f->vals[v].type), k = ty_int_info(from);
  return to.sign && to.bits == 64 && (k.bits < 64 || k.sign) ? d->u.cast.a : v;
}

// Does a loop over [0, hi) cover [0, len): the same count, either of them max(x, 0)?
static bool covers(const Zero *z, Val len, Val hi) {
  Val l = index_clamped(z->def, len), h = index_clamped(z->def, hi);
  l = unwiden(z, l ? l : len), h = unwiden(z, h ? h : hi);
  return l == h || index_same(z->def, l, h);
}

typedef struct {
  Val arr;
  int hits;
} Hits;

static WalkNext count_hit(Node *n, void *ctx) {
  Hits *h = ctx;
  if (n->kind >= IR_READ && n->kind <= IR_UPDATE && n->u.mem.arr == h->arr) h->hits++;
  if ((n->kind == IR_COPY || n->kind == IR_SORT || n->kind == IR_FREE) &&
      (n->u.copy.dst == h->arr || n->u.copy.src == h->arr))
    h->hits++;
  for (int k = 0; n->kind == IR_PAR && k < n->u.par.nhists; k++)
    h->hits += (n->u.par.hists[k].arr == h->arr) + (n->u.par.hists[k].win == h->arr);
  for (int k = 0; n->kind == IR_PAR && k < n->u.par.nwins; k++) h->hits += n->u.par.wins[k] == h->arr;
  return WALK_INTO;
}

static int hits(const Node *n, Val arr) {
  Hits h = {arr, 0};
  ir_walk_node(n, &(Walker){.pre = count_hit, .ctx = &h});
  return h.hits;
}

// s, the first statement after arr's allocation that touches it: the write (or first
// accumulation) of every element at the top of a parallel loop over all of arr, else NULL.
static Node *full_write(const Zero *z, const Node *s, Val arr, Val len) {
  if (s->kind != IR_PAR || hits(s, arr) != 1) return NULL;
  const Node *lo = z->def[s->u.par.lo];
  if (!lo || lo->kind != IR_CONST || lo->u.cst.i || !covers(z, len, s->u.par.hi)) return NULL;
  const Block *b = s->u.par.body;
  for (int i = 0; i < b->n; i++) {
    Node *w = b->stmts[i];
    if ((w->kind == IR_WRITE || w->kind == IR_ACC) && w->u.mem.arr == arr)
      return w->u.mem.idx == s->u.par.idx ? w : NULL;
  }
  return NULL; // (the access is nested in an if or a loop)
}

// ---- writes nothing reads: a temporary's elements set (to 0: an adjoint taken) just before
// the temporary is freed ----

// Does the next statement after b->stmts[i] that touches arr free it?
static bool freed_next(const Block *b, int i, Val arr) {
  for (int j = i + 1; j < b->n; j++)
    if (hits(b->stmts[j], arr)) return b->stmts[j]->kind == IR_FREE && b->stmts[j]->u.copy.dst == arr;
  return false;
}

// In parallel loop s, freed right after it: the writes at the top of its body that come after
// every access of their iteration to their array (all at the loop's index) go.
static void dead_writes(const Zero *z, Block *b, int i) {
  Node *s = b->stmts[i];
  Block *body = s->u.par.body;
  for (int k = body->n - 1; k >= 0; k--) {
    Node *w = body->stmts[k];
    Val arr = w->kind == IR_WRITE ? w->u.mem.arr : 0;
    if (!arr || !z->temp[arr] || z->bad[arr] || w->u.mem.idx != s->u.par.idx) continue;
    int top = 0; // the accesses at the top of the body, all at the index, none after w
    bool ok = true;
    for (int m = 0; m < body->n && ok; m++) {
      const Node *x = body->stmts[m];
      if (x->kind < IR_READ || x->kind > IR_UPDATE || x->u.mem.arr != arr) continue;
      top++;
      ok = m <= k && x->u.mem.idx == s->u.par.idx && x->kind != IR_UPDATE;
    }
    if (!ok || top != hits(s, arr) || !freed_next(b, i, arr)) continue;
    memmove(body->stmts + k, body->stmts + k + 1, sizeof *body->stmts * (size_t)(body->n - k - 1));
    body->n--;
  }
}

static void zero_block(Block *b, void *ctx) {
  const Zero *z = ctx;
  for (int i = 0; i < b->n; i++) {
    Node *a = b->stmts[i];
    if (a->kind != IR_ALLOC || a->u.alloc.tape || a->u.alloc.nozero || z->bad[a->out]) continue;
    int j = i + 1;
    while (j < b->n && !hits(b->stmts[j], a->out)) j++;
    Node *w = j < b->n ? full_write(z, b->stmts[j], a->out, a->u.alloc.n) : NULL;
    if (!w) continue;
    a->u.alloc.nozero = true;
    if (w->kind == IR_ACC) w->kind = IR_WRITE, w->u.mem.mode = ACC_PLAIN;
  }
  for (int i = 0; i < b->n; i++)
    if (b->stmts[i]->kind == IR_PAR) dead_writes(z, b, i);
}

static WalkNext temp_node(Node *n, void *ctx) {
  if (n->kind == IR_ALLOC) ((unsigned char *)ctx)[n->out] = 1;
  return WALK_INTO;
}

void zero_unneeded(Fn *f) {
  size_t nv = (size_t)f->nvals;
  Slots s = {NULL, calloc(nv, 1)};
  ir_walk(f->body, &(Walker){.pre = slot_node, .block = slot_yields, .ctx = &s});
  for (Val v = 1; v < (Val)nv; v++)
    if (f->vals[v].parent) s.bad[f->vals[v].parent] = s.bad[v] = 1;
  Zero z = {f, calloc(nv, sizeof(Node *)), s.bad, calloc(nv, 1)};
  ir_defs(f->body, z.def);
  ir_walk(f->body, &(Walker){.pre = temp_node, .ctx = z.temp});
  ir_walk(f->body, &(Walker){.block = zero_block, .ctx = &z});
  free(z.def);
  free(z.temp);
  free(s.bad);
}
