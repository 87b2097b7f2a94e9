// ad/rev_save.c: saving the array elements that a statement overwrites while an earlier (or
// the same) loop's reverse still reads them (papers/nested-parallel-ad.md §3: redundant
// execution needs the values the loop read; a sequential loop's reverse, which runs its
// iterations again, too).
//
//   P reads a[lo:hi); S overwrites it    =>  forward: save = a[lo:hi) before S
//                                            reverse: swap a[lo:hi) and save before P's
//                                            reverse; swapped back in the epilogue
#include <stdlib.h>
#include <string.h>

#include "rev.h"

// ---- saving overwritten elements ----

void loop_regions(Rev *R, const Block *b, const unsigned char *inside, Val *memo,
                         Region *reg, int *nreg, Val cond);

// Does v (an index in loop n's body; inside: what the body defines, i its index) consist of i,
// values from outside the loop, constants, integer casts and +, -, * (nothing that can fail
// or read memory when computed again, before the loop, for another i)?
static bool section_clonable(Rev *R, Val v, Val i, const unsigned char *inside, int *budget) {
  if (v == i || !inside[v]) return true;
  const Node *d = R->def[v];
  if (!d || --*budget < 0) return false;
  switch (d->kind) {
  case IR_CONST: return true;
  case IR_CAST:
    return ty_is_int(R->pf->vals[d->u.cast.a].type) &&
           section_clonable(R, d->u.cast.a, i, inside, budget);
  case IR_UNOP: return d->u.un.op == UN_NEG && section_clonable(R, d->u.un.a, i, inside, budget);
  case IR_BINOP:
    return (d->u.bin.op == BIN_ADD || d->u.bin.op == BIN_SUB || d->u.bin.op == BIN_MUL) &&
           section_clonable(R, d->u.bin.a, i, inside, budget) &&
           section_clonable(R, d->u.bin.b, i, inside, budget);
  case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF:
  case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL:
  case IR_RETURN: return false;
  }
  UNREACHABLE();
}

// v (section_clonable) computed at the builder's point with at (a value of f) for i.
static Val section_at(Rev *R, Val v, Val i, Val at, const unsigned char *inside) {
  if (v == i) return at;
  if (!inside[v]) return P(v);
  const Node *d = R->def[v];
  Node *c = node_new(R->a, d->kind, d->loc);
  c->u = d->u;
  switch (d->kind) {
  case IR_CAST: c->u.cast.a = section_at(R, d->u.cast.a, i, at, inside); break;
  case IR_UNOP: c->u.un.a = section_at(R, d->u.un.a, i, at, inside); break;
  case IR_BINOP:
    c->u.bin.a = section_at(R, d->u.bin.a, i, at, inside);
    c->u.bin.b = section_at(R, d->u.bin.b, i, at, inside);
    break;
  case IR_CONST: case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
  case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_COLL: case IR_RETURN: break;
  }
  c->out = fn_val(R->f, R->pf->vals[v].type, NULL);
  b_push(&R->b, c);
  return c->out;
}

// The elements of arr that parallel loop n (at host level) overwrites, as one section from
// the least to the greatest element its writes reach (the elements between them saved and
// restored unchanged): every write of arr at the top of n's body (where it runs in every
// iteration), at a*i + b with a a nonzero constant and b the same in every iteration, so that
// its first and last iterations write the two ends.  Computed at the builder's point into
// s->vlo, s->vn (no elements where the loop runs none); false for other writes.
static bool write_section(Rev *R, const Node *n, Val arr, Save *s) {
  const Block *body = n->u.par.body;
  Val i = n->u.par.idx;
  Type *it = R->pf->vals[i].type, *lt = &ty_long;
  if (!ty_is_int(R->pf->vals[n->u.par.lo].type) || !ty_is_int(R->pf->vals[n->u.par.hi].type))
    return false;
  unsigned char *inside = SCRATCH(unsigned char, R->pf->nvals);
  ir_inside(body, inside);
  inside[i] = 1;
  int nw = 0;
  for (int k = 0; k < body->n; k++) {
    const Node *w = body->stmts[k];
    if (w->kind == IR_WRITE && w->u.mem.arr == arr) {
      IndexForm f = index_form(R->def, inside, w->u.mem.idx, i);
      int budget = WALK_BUDGET;
      if (!f.affine || !f.coef || !section_clonable(R, w->u.mem.idx, i, inside, &budget))
        return false;
      nw++;
    } else if (w->kind != IR_WRITE &&
               ir_writes(&(Block){(Node **)&body->stmts[k], 1, 1, NULL, 0}, arr)) {
      return false; // (under an if, in a nested loop)
    }
  }
  if (!nw) return false;
  Builder *b = &R->b;
  Val lo = P(n->u.par.lo), hi = P(n->u.par.hi);
  Val first = b_cast(b, it, lo);
  Val last = b_cast(b, it, b_binop(b, BIN_SUB, hi, b_const_i(b, val_type(R->f, hi), 1)));
  Val least = 0, greatest = 0;
  for (int k = 0; k < body->n; k++) {
    const Node *w = body->stmts[k];
    if (w->kind != IR_WRITE || w->u.mem.arr != arr) continue;
    Val e0 = b_cast(b, lt, section_at(R, w->u.mem.idx, i, first, inside));
    Val e1 = b_cast(b, lt, section_at(R, w->u.mem.idx, i, last, inside));
    Val mn = b_select(b, b_binop(b, BIN_LT, e0, e1), e0, e1);
    Val mx = b_select(b, b_binop(b, BIN_LT, e0, e1), e1, e0);
    least = least ? b_select(b, b_binop(b, BIN_LT, mn, least), mn, least) : mn;
    greatest = greatest ? b_select(b, b_binop(b, BIN_GT, mx, greatest), mx, greatest) : mx;
  }
  Val T = b_binop(b, BIN_SUB, b_cast(b, lt, hi), b_cast(b, lt, lo));
  Val len = b_add(b, b_sub(b, greatest, least), b_const_i(b, lt, 1));
  Val zero = b_const_i(b, lt, 0);
  *s = (Save){arr, 0, 0, 0, least, b_select(b, b_binop(b, BIN_GT, T, zero), len, zero)};
  return true;
}

// The reads and writes of one array in a loop's body in program order (seq), and the pre-order
// ranges of the loops nested in it.
#define OWN_MAX 64
typedef struct {
  Val arr;
  const Node *acc[OWN_MAX];
  int seq[OWN_MAX], nacc;
  int loop_lo[OWN_MAX], loop_hi[OWN_MAX], nloops;
  int at;
  bool full;
} Own;

static void own_walk(Own *o, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    o->at++;
    if ((s->kind == IR_READ || s->kind == IR_WRITE) && s->u.mem.arr == o->arr) {
      if (o->nacc == OWN_MAX) o->full = true;
      else o->seq[o->nacc] = o->at, o->acc[o->nacc++] = s;
    }
    if (s->kind == IR_IF) own_walk(o, s->u.ifs.then), own_walk(o, s->u.ifs.els);
    if (s->kind == IR_LOOP || s->kind == IR_PAR) {
      int start = o->at;
      own_walk(o, s->kind == IR_LOOP ? s->u.loop.body : s->u.par.body);
      if (o->nloops == OWN_MAX) o->full = true;
      else o->loop_lo[o->nloops] = start, o->loop_hi[o->nloops++] = o->at;
    }
  }
}

// Does parallel loop n read (and so re-read in its reverse, which runs after its writes) an
// element of arr that the same iteration writes later (or in another iteration of a loop
// nested in the body)?  A read of an element written earlier in the iteration reads it only
// where that write did not run (the front end forwards the written value: parser/
// lower_access.c), and other iterations write other elements (map_dependence): after the
// loop, memory still holds what the read saw, and nothing need be saved for it.
static bool rereads_own_writes(Rev *R, const Node *n, Val arr) {
  if (!block_rereads(n->u.par.body, arr, true)) return false;
  Own *o = SCRATCH(Own, 1);
  o->arr = arr;
  own_walk(o, n->u.par.body);
  if (o->full) return true;
  IndexLoop lp;
  bool have = false;
  for (int r = 0; r < o->nacc; r++) {
    if (o->acc[r]->kind != IR_READ) continue;
    for (int w = 0; w < o->nacc; w++) {
      if (o->acc[w]->kind != IR_WRITE) continue;
      bool again = o->seq[w] > o->seq[r];
      for (int l = 0; l < o->nloops && !again; l++)
        again = o->loop_lo[l] <= o->seq[r] && o->seq[r] <= o->loop_hi[l] &&
                o->loop_lo[l] <= o->seq[w] && o->seq[w] <= o->loop_hi[l];
      if (!again) continue;
      if (!have) {
        unsigned char *inside = SCRATCH(unsigned char, R->pf->nvals);
        ir_inside(n->u.par.body, inside);
        inside[n->u.par.idx] = 1;
        index_loop(&lp, R->cx->scratch, R->pf, R->def, inside, n->u.par.body, n->u.par.idx,
                   n->u.par.lo, n->u.par.hi);
        have = true;
      }
      if (!index_overlap(&lp, o->acc[w]->u.mem.idx, o->acc[r]->u.mem.idx, true).proof) return true;
    }
  }
  return false;
}

// A write to put on a tape, and the parallel loops nested in the taped loop around it.
typedef struct {
  const Node *w;
  const Node *nest[3];
  int nnest;
} TapeWrite;

// The writes of arr in b (in ifs, and in parallel loops nested in it whose bounds are the same
// in every iteration of the taped loop: inside marks what its body defines) into w[0 .. *n);
// false for one in a sequential loop (it runs several times per iteration), in a nested loop
// with other bounds, or past cap.  at: the nested loops around b.
static bool tape_writes(Rev *R, const Block *b, Val arr, const unsigned char *inside,
                        TapeWrite *w, int *n, int cap, const TapeWrite *at) {
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    if (s->kind == IR_WRITE && s->u.mem.arr == arr) {
      if (*n == cap) return false;
      w[*n] = *at;
      w[(*n)++].w = s;
    }
    if (s->kind == IR_IF && (!tape_writes(R, s->u.ifs.then, arr, inside, w, n, cap, at) ||
                             !tape_writes(R, s->u.ifs.els, arr, inside, w, n, cap, at)))
      return false;
    if ((s->kind != IR_LOOP && s->kind != IR_PAR) ||
        !ir_writes(&(Block){(Node **)&b->stmts[i], 1, 1, NULL, 0}, arr))
      continue;
    int budget = WALK_BUDGET; // (bounds: computed before the taped loop, section_at)
    if (s->kind == IR_LOOP || at->nnest == 3 ||
        !section_clonable(R, s->u.par.lo, 0, inside, &budget) ||
        !section_clonable(R, s->u.par.hi, 0, inside, &budget))
      return false;
    for (int h = 0; h < s->u.par.nhists; h++)
      if (s->u.par.hists[h].arr == arr) return false;
    TapeWrite in = *at;
    in.nest[in.nnest++] = s;
    if (!tape_writes(R, s->u.par.body, arr, inside, w, n, cap, &in)) return false;
  }
  return true;
}

#define MAX_TAPES 8 // element tapes per array and loop

static WalkNext alloc_of(Node *n, void *ctx) {
  Rev *R = ctx;
  if (n->kind == IR_ALLOC && !n->u.alloc.tape) R->arrays[R->narrays++] = n->out;
  return n->kind == IR_PAR ? WALK_SKIP : WALK_INTO;
}

// The arrays of the function: its pointer parameters and the arrays it allocates.
const Val *user_arrays(Rev *R, int *n) {
  if (!R->arrays) {
    R->arrays = SCRATCH(Val, R->pf->nvals + 1);
    for (int i = 0; i < R->pf->nparams; i++)
      if (R->pf->params[i].is_array) R->arrays[R->narrays++] = R->pf->params[i].val;
    ir_walk(R->pf->body, &(Walker){.pre = alloc_of, .ctx = R});
  }
  *n = R->narrays;
  return R->arrays;
}

// Before statement k of a host-level block: which arrays does it overwrite that a loop at or
// before k reads (and so re-reads in the reverse sweep: a parallel loop, or a sequential one,
// whose reverse runs its iterations again)?  A sequential loop's
// reverse leaves what it overwrote as before the loop; at the function's level its
// elements are saved too, to be the outputs again at the end.
void plan_saves(Rev *R, const Block *body, int k, bool top, Save *out, int *nout) {
  const Node *n = body->stmts[k];
  *nout = 0;
  if (n->kind == IR_LOOP) {
    if (!top) return;
    Region reg[MAX_REGIONS];
    int nreg = regions_of(R, n, reg);
    for (int r = 0; r < nreg; r++)
      out[(*nout)++] = (Save){reg[r].arr, 0, 0, 0, reg[r].vlo, reg[r].vn, .moving = reg[r].moving};
    return;
  }
  int narr;
  const Val *arrays = user_arrays(R, &narr);
  for (int pi = 0; pi < narr; pi++) {
    Val arr = arrays[pi];
    if (!ir_writes(&(Block){(Node **)&body->stmts[k], 1, 1}, arr)) continue;
    bool needed = false;
    for (int j = 0; j < k && !needed; j++)
      needed = node_rereads(body->stmts[j], arr, false);
    if (!needed)
      needed = n->kind == IR_PAR ? rereads_own_writes(R, n, arr) : node_rereads(n, arr, false);
    if (!needed) continue;
    if (n->kind == IR_PAR && !writes_at_index(n->u.par.body, arr, n->u.par.idx)) {
      if (write_section(R, n, arr, &out[*nout])) {
        (*nout)++;
        continue;
      }
      // each write's elements on a tape of its own, in the order of the writes (swapped back
      // in the opposite order: an element written twice gets its first old value last)
      TapeWrite w[MAX_TAPES];
      int nw = 0;
      unsigned char *inside = SCRATCH(unsigned char, R->pf->nvals);
      ir_inside(n->u.par.body, inside);
      inside[n->u.par.idx] = 1;
      if (!tape_writes(R, n->u.par.body, arr, inside, w, &nw, MAX_TAPES, &(TapeWrite){0}) ||
          *nout + nw > narr + MAX_REGIONS)
        diag_error(n->loc, "write the array in the loop's body itself, or in a parallel loop "
                   "nested in it (#pragma adsoac map) with the same bounds in every iteration; "
                   "or write the new values to another array",
                   "this loop overwrites elements of '%s' that a parallel loop reads, in a "
                   "sequential loop nested in it, in a nested parallel loop whose bounds change "
                   "with the iteration, or at more than %d places: saving them is not supported "
                   "yet",
                   R->pf->vals[arr].hint, MAX_TAPES);
      for (int q = 0; q < nw; q++) {
        Save *t = &out[(*nout)++];
        *t = (Save){.arr = arr, .w = w[q].w, .par = n, .nnest = w[q].nnest};
        memcpy(t->nest, w[q].nest, sizeof t->nest);
      }
    } else if (n->kind == IR_PAR) {
      out[(*nout)++] = (Save){arr, n->u.par.lo, n->u.par.hi};
    } else if (n->kind == IR_WRITE) {
      out[(*nout)++] = (Save){arr, n->u.mem.idx, 0};
    } else { // an if: the sections its branches write, each saved where its branch runs
      Region reg[MAX_REGIONS];
      unsigned char *inside = SCRATCH(unsigned char, R->pf->nvals);
      ir_inside(&(Block){(Node **)&body->stmts[k], 1, 1, NULL, 0}, inside);
      Val *memo = SCRATCH(Val, R->pf->nvals);
      int nreg = 0;
      loop_regions(R, &(Block){(Node **)&body->stmts[k], 1, 1, NULL, 0}, inside, memo, reg, &nreg, 0);
      for (int r = 0; r < nreg; r++)
        if (reg[r].arr == arr) out[(*nout)++] = (Save){arr, 0, 0, 0, reg[r].vlo, reg[r].vn};
    }
  }
}

// The element tapes of s (zeroed: no element written yet), before its loop.
static void tape_alloc(Rev *R, Save *s) {
  Builder *b = &R->b;
  const Node *n = s->par;
  const char *name = R->pf->vals[s->arr].hint;
  Val d = b_binop(b, BIN_SUB, b_cast(b, &ty_long, P(n->u.par.hi)),
                  b_cast(b, &ty_long, P(n->u.par.lo)));
  Val zero = b_const_i(b, &ty_long, 0);
  s->vn = b_select(b, b_binop(b, BIN_GT, d, zero), d, zero);
  unsigned char *inside = NULL;
  if (s->nnest) {
    inside = SCRATCH(unsigned char, R->pf->nvals);
    ir_inside(n->u.par.body, inside);
  }
  for (int k = 0; k < s->nnest; k++) { // (a place per iteration of the nested loops too)
    const Node *m = s->nest[k];
    Val dk = b_binop(b, BIN_SUB, b_cast(b, &ty_long, section_at(R, m->u.par.hi, 0, 0, inside)),
                     b_cast(b, &ty_long, section_at(R, m->u.par.lo, 0, 0, inside)));
    s->nT[k] = b_select(b, b_binop(b, BIN_GT, dk, zero), dk, zero);
    s->vn = b_binop(b, BIN_MUL, s->vn, s->nT[k]);
  }
  s->save = scan_alloc(b, R->pf->vals[s->arr].type->elem, s->vn,
                       arena_printf(R->a, "%s_saved", name));
  s->tidx = scan_alloc(b, &ty_long, s->vn, arena_printf(R->a, "%s_saved_at", name));
  s->tflag = scan_alloc(b, &ty_int, s->vn, arena_printf(R->a, "%s_saved_set", name));
}

typedef struct {
  Rev *R;
  const Node *clone;
  const Save *s;
  int ns;
} Tapes;

// Before each write of the cloned loop that has a tape: the element it overwrites, its index
// and the mark that it was written, at the iteration's place on the tape.
static void tape_block(Block *b, void *ctx) {
  const Tapes *t = ctx;
  Rev *R = t->R;
  Block out = {0}; // b's statements with the tapes' (block_push grows it)
  bool taped = false;
  for (int i = 0; i < b->n; i++) {
    Node *w = b->stmts[i];
    for (int k = 0; k < t->ns && w->kind == IR_WRITE; k++) {
      const Save *s = &t->s[k];
      if (!s->w || w->u.mem.arr != P(s->arr) || w->u.mem.idx != P(s->w->u.mem.idx) ||
          w->u.mem.v != P(s->w->u.mem.v))
        continue;
      Builder tb = {R->f, &out, w->loc};
      const Node *c = t->clone;
      Val at = b_binop(&tb, BIN_SUB, b_cast(&tb, &ty_long, c->u.par.idx),
                       b_cast(&tb, &ty_long, c->u.par.lo));
      for (int q = 0; q < s->nnest; q++) { // at * T + (j - lo) for each nested loop
        const Node *m = s->nest[q];
        Val j = b_binop(&tb, BIN_SUB, b_cast(&tb, &ty_long, P(m->u.par.idx)),
                        b_cast(&tb, &ty_long, P(m->u.par.lo)));
        at = b_binop(&tb, BIN_ADD, b_binop(&tb, BIN_MUL, at, s->nT[q]), j);
      }
      b_write(&tb, s->save, at, b_read(&tb, w->u.mem.arr, w->u.mem.idx));
      b_write(&tb, s->tidx, at, b_cast(&tb, &ty_long, w->u.mem.idx));
      b_write(&tb, s->tflag, at, b_const_i(&tb, &ty_int, 1));
      taped = true;
    }
    block_push(R->a, &out, w);
  }
  if (!taped) return;
  b->stmts = out.stmts;
  b->n = out.n;
  b->cap = out.cap;
}

void tape_saves(Rev *R, Node *clone, const Save *s, int ns) {
  IR_ASSERT(clone->kind == IR_PAR);
  bool any = false;
  for (int k = 0; k < ns; k++) any |= s[k].w != NULL;
  if (any)
    ir_walk(clone->u.par.body, &(Walker){.block = tape_block, .ctx = &(Tapes){R, clone, s, ns}});
}

// arr[tidx[k]] <-> save[k] wherever tflag[k] is set: the elements before the loop, or after it.
static void tape_swap(Rev *R, const Save *s) {
  Node *m = node_new(R->a, IR_PAR, R->b.loc);
  m->u.par.lo = b_const_i(&R->b, &ty_long, 0);
  m->u.par.hi = s->vn;
  m->u.par.idx = fn_val(R->f, &ty_long, "k");
  m->u.par.pragma = s->par->u.par.pragma;
  m->u.par.reds = ARENA_NEW(R->a, Red);
  m->u.par.scans = ARENA_NEW(R->a, Scan);
  m->u.par.hists = ARENA_NEW(R->a, Hist);
  m->u.par.body = block_new(R->a);
  Builder in = {R->f, m->u.par.body, R->b.loc};
  Node *f = node_new(R->a, IR_IF, R->b.loc);
  f->u.ifs.cond = b_read(&in, s->tflag, m->u.par.idx);
  f->u.ifs.then = block_new(R->a);
  f->u.ifs.els = block_new(R->a);
  Builder th = {R->f, f->u.ifs.then, R->b.loc};
  Val j = b_read(&th, s->tidx, m->u.par.idx);
  Val now = b_read(&th, P(s->arr), j), saved = b_read(&th, s->save, m->u.par.idx);
  b_write(&th, P(s->arr), j, saved);
  b_write(&th, s->save, m->u.par.idx, now);
  b_push(&in, f);
  b_push(&R->b, m);
}

void free_save(Rev *R, const Save *s) {
  if (s->save) scan_free(&R->b, s->save);
  if (s->itape) scan_free(&R->b, s->itape);
  if (s->tidx) scan_free(&R->b, s->tidx);
  if (s->tflag) scan_free(&R->b, s->tflag);
}

void emit_save(Rev *R, Save *s) {
  if (s->moving) return; // (the loop's forward run keeps its outputs: moving_saved)
  if (s->w) {
    tape_alloc(R, s);
    return;
  }
  Builder *b = &R->b;
  Type *it = &ty_long;
  if (!s->vn) s->vlo = b_cast(b, it, P(s->lo));
  if (s->vn) {
  } else if (s->hi) {
    Val n = b_binop(b, BIN_SUB, b_cast(b, it, P(s->hi)), s->vlo);
    Val pos = b_binop(b, BIN_GT, n, b_const_i(b, it, 0));
    s->vn = b_select(b, pos, n, b_const_i(b, it, 0));
  } else {
    s->vn = b_const_i(b, it, 1);
  }
  Node *al = node_new(R->a, IR_ALLOC, b->loc);
  al->u.alloc.n = s->vn;
  al->out = fn_val(R->f, ty_ptr(R->a, R->pf->vals[s->arr].type->elem, false),
                   arena_printf(R->a, "%s_saved", R->pf->vals[s->arr].hint));
  b_push(b, al);
  s->save = al->out;
  Node *cp = node_new(R->a, IR_COPY, b->loc); // save[0:n] = arr[lo:lo+n]
  cp->u.copy.dst = s->save;
  cp->u.copy.src = P(s->arr);
  cp->u.copy.n = s->vn;
  cp->u.copy.off = s->vlo;
  b_push(b, cp);
}

// After the forward run of the loop at statement k: where the moving sections' outputs are.
void moving_saved(Rev *R, const Node *loop, Save *saves, int n) {
  LoopAux *x = loop_aux_of(R, loop);
  int r = 0; // (plan_saves listed the loop's regions in their order)
  for (int i = 0; i < n; i++) {
    if (!saves[i].moving) continue;
    while (r < x->nreg && !x->reg[r].moving) r++;
    IR_ASSERT(r < x->nreg && x->reg[r].arr == saves[i].arr);
    saves[i].save = x->reg[r].post;
    saves[i].itape = x->reg[r].itape;
    saves[i].vn = x->reg[r].vn;
    saves[i].T = x->T;
    r++;
  }
}

// epilogue: the outputs go back (a moving section: only then; before the loop's reverse its
// elements are as the reverse expects them, the loop's own outputs)
void emit_swap(Rev *R, const Save *s, bool epilogue) {
  if (s->moving) {
    if (epilogue) {
      Region g = {.arr = s->arr, .vn = s->vn, .moving = true, .itape = s->itape, .post = s->save};
      moving_copies(R, &g, s->T, false);
    }
    return;
  }
  if (s->w) {
    tape_swap(R, s);
    return;
  }
  if (s->restore) { // (copied back: the state before the if)
    Node *cp = node_new(R->a, IR_COPY, R->b.loc);
    cp->u.copy.dst = P(s->arr);
    cp->u.copy.doff = s->vlo;
    cp->u.copy.src = s->save;
    cp->u.copy.off = b_const_i(&R->b, &ty_long, 0);
    cp->u.copy.n = s->vn;
    b_push(&R->b, cp);
    return;
  }
  Node *sw = node_new(R->a, IR_COPY, R->b.loc); // arr[lo:lo+n] <-> save[0:n]
  sw->u.copy.dst = s->save;
  sw->u.copy.src = P(s->arr);
  sw->u.copy.n = s->vn;
  sw->u.copy.off = s->vlo;
  sw->u.copy.swap = true;
  b_push(&R->b, sw);
}

// ---- the arrays of a parallel loop's iterations ----

typedef struct {
  unsigned char *priv;
  int par; // parallel loops around the statement walked
} PrivWalk;

static WalkNext priv_pre(Node *n, void *ctx) {
  PrivWalk *w = ctx;
  if (n->kind == IR_ALLOC && w->par) w->priv[n->out] = 1;
  if (n->kind == IR_PAR) w->par++;
  return WALK_INTO;
}

static void priv_post(Node *n, void *ctx) {
  if (n->kind == IR_PAR) ((PrivWalk *)ctx)->par--;
}

unsigned char *private_arrays(Rev *R) {
  PrivWalk w = {SCRATCH(unsigned char, R->pf->nvals), 0};
  ir_walk(R->pf->body, &(Walker){.pre = priv_pre, .post = priv_post, .ctx = &w});
  return w.priv;
}

static WalkNext own_write(Node *n, void *ctx) {
  Rev *R = ctx;
  return n->kind == IR_WRITE && R->in_par[n->u.mem.arr] ? WALK_STOP : WALK_INTO;
}

// Does n write an array of the iterations of the parallel loop being reversed (R->par)?
bool writes_own_arrays(Rev *R, const Node *n) {
  return ir_walk_node(n, &(Walker){.pre = own_write, .ctx = R}) != NULL;
}

typedef struct {
  Val arr;
  bool loops; // only reads inside loops (which re-read in their reverse)
} ReadWalk;

static WalkNext read_pre(Node *n, void *ctx) {
  ReadWalk *w = ctx;
  if (n->kind == IR_READ && n->u.mem.arr == w->arr) return WALK_STOP;
  if (w->loops && n->kind != IR_LOOP && n->kind != IR_PAR && n->kind != IR_IF) return WALK_SKIP;
  return WALK_INTO;
}

static WalkNext loop_pre(Node *n, void *ctx) {
  ReadWalk *w = ctx;
  if ((n->kind == IR_LOOP || n->kind == IR_PAR) &&
      ir_walk_node(n, &(Walker){.pre = read_pre, .ctx = &(ReadWalk){w->arr, false}}))
    return WALK_STOP;
  return n->kind == IR_IF ? WALK_INTO : WALK_SKIP;
}

// Does n hold a loop (or is one) that reads arr?
static bool loop_reads(const Node *n, Val arr) {
  return ir_walk_node(n, &(Walker){.pre = loop_pre, .ctx = &(ReadWalk){arr, true}}) != NULL;
}

// In the body of a parallel loop being reversed: before statement k, the iteration's arrays it
// overwrites that a loop at or before it reads (re-reads in its reverse), saved whole.  A
// sequential loop that writes them restores them itself (its checkpoints).
void plan_private_saves(Rev *R, const Block *body, int k, Save *out, int *nout) {
  const Node *n = body->stmts[k];
  *nout = 0;
  if (n->kind == IR_LOOP) return;
  for (int v = 1; v < R->pf->nvals; v++) {
    if (!R->in_par[v] || !R->priv[v]) continue;
    if (!ir_writes(&(Block){(Node **)&body->stmts[k], 1, 1, NULL, 0}, v)) continue;
    if (n->kind == IR_IF) { // its reverse runs its branch again, from the state before it
      const Node *a = R->def[v];
      Builder *b = &R->b;
      out[(*nout)++] = (Save){v, 0, 0, 0, b_const_i(b, &ty_long, 0),
                              b_cast(b, &ty_long, P(a->u.alloc.n)), .restore = true};
      continue;
    }
    bool needed = n->kind == IR_PAR && loop_reads(n, v);
    for (int j = 0; j < k && !needed; j++) needed = loop_reads(body->stmts[j], v);
    if (!needed) continue;
    const Node *a = R->def[v];
    IR_ASSERT(a && a->kind == IR_ALLOC);
    Builder *b = &R->b;
    out[(*nout)++] = (Save){v, 0, 0, 0, b_const_i(b, &ty_long, 0), b_cast(b, &ty_long, P(a->u.alloc.n))};
  }
}
