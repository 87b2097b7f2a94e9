// ad/rev_loop.c: the reverse rule of a sequential loop, with checkpoints
// (papers/nested-parallel-ad.md §5: strip-mined loop checkpointing).
//
//   for t in [lo, hi): state = body(state)
//   =>  forward:  for t: tape[t] = (carried values, the elements body overwrites); body
//       reverse:  for t from hi-1 down to lo: restore tape[t]; re-run body forward;
//                 reverse(body)
// The loop has been strip-mined (transform/stripmine.c): the tape holds one state per
// iteration of the outer strip, the inner strips are re-run from it (memory O(T^(1/L))).
#include <stdlib.h>
#include <string.h>

#include "rev.h"

// ---- sequential loops (language.md §5; papers/nested-parallel-ad.md §4) ----
//
// At host level a loop runs forward once and saves, at the start of each iteration, the
// elements its iterations overwrite (regions) and its carried scalars: one state per
// iteration (stripmine.c nests the loop so that fewer are alive at once).  Its reverse runs
// the iterations backwards: restore iteration t's state, then the forward and reverse sweeps
// of the body; the adjoints of carried values and of scalars from outside the loop are the
// reverse loop's carried values.  Inside a parallel loop's body (one thread's loop) no state
// is saved: carried values that are running sums (p = p + e, p read nowhere else) need none,
// the others are recomputed from the loop's start for each iteration.

LoopAux *loop_aux_of(Rev *R, const Node *n);

static LoopAux *loop_aux(Rev *R, const Node *n) {
  for (LoopAux *x = R->laux; x; x = x->next)
    if (x->loop == n) return x;
  return NULL;
}

// Carried value k of loop n is a running sum: yields[k] = p + e, e + p or p - e, and neither
// p nor the sum is read anywhere else in the body, so no iteration needs p's value.
static bool running_sum(Rev *R, const Node *n, int k, const int *uses) {
  Val p = n->u.loop.params[k], y = n->u.loop.body->yields[k];
  const Node *d = R->def[y];
  if (uses[p] != 1 || uses[y] != 1 || !d || d->kind != IR_BINOP) return false;
  return (d->u.bin.op == BIN_ADD && (d->u.bin.a == p || d->u.bin.b == p)) ||
         (d->u.bin.op == BIN_SUB && d->u.bin.a == p);
}

// Carried value k of loop n is an integer induction: yields[k] = p + c or p - c, c from
// outside the loop (a counter through a packed triangle, Lparamsidx++).  Its value at
// iteration t is init + (t - lo) * c (exactly: integers), neither taped nor recomputed.
static Val induction_step(Rev *R, const Node *n, int k, int *sign) {
  Val p = n->u.loop.params[k];
  const Node *d = R->def[n->u.loop.body->yields[k]];
  if (!ty_is_int(R->pf->vals[p].type) || !d || d->kind != IR_BINOP ||
      (d->u.bin.op != BIN_ADD && d->u.bin.op != BIN_SUB))
    return 0;
  Val c = d->u.bin.a == p ? d->u.bin.b : d->u.bin.op == BIN_ADD && d->u.bin.b == p ? d->u.bin.a : 0;
  if (!c || c == p) return 0;
  unsigned char *inside = SCRATCH(unsigned char, R->pf->nvals);
  ir_inside(&(Block){(Node **)&n, 1, 1, NULL, 0}, inside);
  const Node *cd = R->def[c];
  if (inside[c] && !(cd && cd->kind == IR_CONST)) return 0;
  *sign = d->u.bin.op == BIN_SUB ? -1 : 1;
  return c;
}

// The value of induction k of loop n at the start of the iteration whose index is t (at the
// builder's point), or 0 where k is not one.
static Val induction_at(Rev *R, const Node *n, int k, Val t) {
  int sign = 1;
  Val c = induction_step(R, n, k, &sign);
  if (!c) return 0;
  Builder *b = &R->b;
  Type *ty = R->pf->vals[n->u.loop.params[k]].type;
  const Node *cd = R->def[c];
  Val step = cd && cd->kind == IR_CONST ? b_const_i(b, ty, cd->u.cst.i) : P(c);
  Val cnt = b_cast(b, ty, b_binop(b, BIN_SUB, t, b_cast(b, val_type(R->f, t), P(n->u.loop.lo))));
  return b_binop(b, sign < 0 ? BIN_SUB : BIN_ADD, P(n->u.loop.init[k]), b_binop(b, BIN_MUL, cnt, step));
}

// Does loop n carry a value its iterations read that is not a running sum?  In a parallel
// loop's body on the C target, such a loop keeps those values on a tape (fwd_seq_loop, in the
// thread's scratch) instead of recomputing them from its start for each iteration of its
// reverse, quadratic in its trip count (a running maximum, a counter through a packed
// triangle); the CUDA target recomputes them (a tape there is a device malloc per thread).
// (Or a loop nested in it does: the loops around it keep their tapes, so that its reverse
// is not run from a recomputation either.)
static WalkNext stateful_loop(Node *n, void *ctx) {
  Rev *R = ctx;
  if (n->kind == IR_PAR) return WALK_SKIP;
  if (n->kind != IR_LOOP || n->u.loop.exit) return WALK_INTO;
  int *uses = SCRATCH(int, R->pf->nvals);
  count_block(n->u.loop.body, uses);
  int sign;
  for (int k = 0; k < n->u.loop.ncarry; k++)
    if (uses[n->u.loop.params[k]] && !running_sum(R, n, k, uses) && !induction_step(R, n, k, &sign))
      return WALK_STOP;
  return WALK_INTO;
}

bool carries_state(Rev *R, const Node *n) {
  return !R->cx->cuda && ir_walk_node(n, &(Walker){.pre = stateful_loop, .ctx = R});
}

bool block_carries_state(Rev *R, const Block *b) {
  return !R->cx->cuda && ir_walk(b, &(Walker){.pre = stateful_loop, .ctx = R});
}

// Primal v, defined in a loop (inside[v]), computed again at the builder's point from values
// outside the loop; refused when it depends on the iteration.  Operands first, by an explicit
// stack (a chain of n statements recursed n deep).
static Val materialize(Rev *R, Val v, const unsigned char *inside, Val *memo, Loc loc) {
  if (!v || !inside[v]) return v ? P(v) : 0;
  int n = 0, cap = 16;
  Val *stack = malloc(sizeof(Val) * (size_t)cap);
  if (!stack) diag_internal(__FILE__, __LINE__, "out of memory");
  stack[n++] = v;
  while (n) {
    Val t = stack[n - 1];
    if (memo[t]) {
      n--;
      continue;
    }
    const Node *d = R->def[t];
    if (!d || (d->kind != IR_CONST && d->kind != IR_UNOP && d->kind != IR_BINOP &&
               d->kind != IR_CAST && d->kind != IR_CALL)) {
      free(stack);
      diag_error(loc, "give the parallel loops in the sequential loop bounds (and a write outside "
                 "them an index) that are the same in every iteration",
                 "the elements this sequential loop overwrites change from iteration to "
                 "iteration: checkpointing them is not supported");
    }
    Val ops[3] = {0, 0, 0};
    switch (d->kind) {
    case IR_UNOP: ops[0] = d->u.un.a; break;
    case IR_BINOP: ops[0] = d->u.bin.a, ops[1] = d->u.bin.b; break;
    case IR_CAST: ops[0] = d->u.cast.a; break;
    case IR_CALL: ops[0] = d->u.call.a, ops[1] = d->u.call.b, ops[2] = d->u.call.c; break;
    case IR_CONST: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT:
    case IR_FREE: case IR_COLL: case IR_RETURN: break;
    }
    bool ready = true;
    for (int k = 2; k >= 0; k--) // the first operand on top: made first, as C evaluates
      if (ops[k] && inside[ops[k]] && !memo[ops[k]]) {
        if (n == cap) {
          cap *= 2;
          stack = realloc(stack, sizeof(Val) * (size_t)cap);
          if (!stack) diag_internal(__FILE__, __LINE__, "out of memory");
        }
        stack[n++] = ops[k];
        ready = false;
      }
    if (!ready) continue;
    Val m[3];
    for (int k = 0; k < 3; k++) m[k] = !ops[k] ? 0 : inside[ops[k]] ? memo[ops[k]] : P(ops[k]);
    Node *c = node_new(R->a, d->kind, d->loc);
    c->u = d->u;
    switch (d->kind) {
    case IR_UNOP: c->u.un.a = m[0]; break;
    case IR_BINOP: c->u.bin.a = m[0], c->u.bin.b = m[1]; break;
    case IR_CAST: c->u.cast.a = m[0]; break;
    case IR_CALL: c->u.call.a = m[0], c->u.call.b = m[1], c->u.call.c = m[2]; break;
    case IR_CONST: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT:
    case IR_FREE: case IR_COLL: case IR_RETURN: break;
    }
    c->out = memo[t] = fn_val(R->f, R->pf->vals[t].type, R->pf->vals[t].hint);
    b_push(&R->b, c);
    n--;
  }
  free(stack);
  return memo[v];
}

LoopAux *loop_aux_of(Rev *R, const Node *n) {
  return loop_aux(R, n);
}

// Could materialize compute v, from values outside the loop (inside[]: defined in it) and
// the leaves?  (The same walk, without building: an explicit stack, each value once.)
static bool can_materialize(Rev *R, Val v, const unsigned char *inside, const Val *leaves,
                            int nleaves) {
  if (!v || !inside[v]) return true;
  unsigned char *seen = SCRATCH(unsigned char, R->pf->nvals);
  int n = 0, cap = 16;
  Val *stack = SCRATCH(Val, cap);
  stack[n++] = v;
  seen[v] = 1;
  while (n) {
    Val t = stack[--n];
    bool leaf = false;
    for (int k = 0; k < nleaves; k++) leaf |= leaves[k] == t;
    if (leaf) continue;
    const Node *d = R->def[t];
    Val ops[2] = {0, 0};
    if (!d) return false;
    switch (d->kind) {
    case IR_CONST: break;
    case IR_UNOP: ops[0] = d->u.un.a; break;
    case IR_BINOP: ops[0] = d->u.bin.a, ops[1] = d->u.bin.b; break;
    case IR_CAST: ops[0] = d->u.cast.a; break;
    case IR_CALL: ops[0] = d->u.call.a, ops[1] = d->u.call.b; break;
    case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF:
    case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL:
    case IR_RETURN:
      return false;
    }
    for (int k = 0; k < 2; k++) {
      if (!ops[k] || !inside[ops[k]] || seen[ops[k]]) continue;
      if (n == cap) {
        Val *bigger = SCRATCH(Val, 2 * cap);
        memcpy(bigger, stack, sizeof(Val) * (size_t)n);
        stack = bigger, cap *= 2;
      }
      seen[ops[k]] = 1;
      stack[n++] = ops[k];
    }
  }
  return true;
}

// The arrays b writes (IR_WRITE, nested blocks included), once each.
static void written_arrays(const Block *b, Val *arrs, int *n) {
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    if (s->kind == IR_WRITE) {
      bool seen = false;
      for (int k = 0; k < *n; k++) seen |= arrs[k] == s->u.mem.arr;
      if (!seen && *n < MAX_REGIONS) arrs[(*n)++] = s->u.mem.arr;
    }
    if (s->kind == IR_IF) written_arrays(s->u.ifs.then, arrs, n), written_arrays(s->u.ifs.els, arrs, n);
    if (s->kind == IR_PAR) written_arrays(s->u.par.body, arrs, n);
    if (s->kind == IR_LOOP) written_arrays(s->u.loop.body, arrs, n);
  }
}

// ---- the elements that writes in nested loops reach: intervals ----

typedef struct {
  const unsigned char *inside;
  const Node **loops; // loops[i]: the loop (nested in the one whose regions are found) of index i
  Val *lo, *hi;       // memo (vjp values, long)
  Val nonempty;       // the nested loops the bounds used all run (vjp int), 0: none used
  int budget;
} Bounds;

static void note_nested(const Block *b, const Node **loops) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_IF) note_nested(n->u.ifs.then, loops), note_nested(n->u.ifs.els, loops);
    if (n->kind == IR_LOOP) loops[n->u.loop.idx] = n, note_nested(n->u.loop.body, loops);
    if (n->kind == IR_PAR) loops[n->u.par.idx] = n, note_nested(n->u.par.body, loops);
  }
}

// The least and greatest value of primal integer v over the iterations of the loops nested in
// the sequential loop (from values outside it, as long values at the builder's point); false
// where v depends on the loop's own index or on anything but +, -, *, integer casts, constants
// and nested loops' indices.  The interval holds v only where those loops run: bd->nonempty.
static bool bounds_of(Rev *R, Bounds *bd, Val v, Val *lo, Val *hi) {
  Builder *b = &R->b;
  if (--bd->budget < 0) return false;
  if (!bd->inside[v]) {
    if (!ty_is_int(R->pf->vals[v].type)) return false;
    *lo = *hi = b_cast(b, &ty_long, P(v));
    return true;
  }
  if (bd->lo[v]) {
    *lo = bd->lo[v], *hi = bd->hi[v];
    return true;
  }
  if (!bd->loops[v] && can_materialize(R, v, bd->inside, NULL, 0)) { // the same in every iteration
    Val *memo = SCRATCH(Val, R->pf->nvals);
    *lo = *hi = bd->lo[v] = bd->hi[v] =
        b_cast(b, &ty_long, materialize(R, v, bd->inside, memo, R->b.loc));
    return true;
  }
  const Node *lp = bd->loops[v];
  if (lp) { // a nested loop's index: [lo, hi - 1], where it runs
    Val llo = lp->kind == IR_LOOP ? lp->u.loop.lo : lp->u.par.lo;
    Val lhi = lp->kind == IR_LOOP ? lp->u.loop.hi : lp->u.par.hi;
    if (lp->kind == IR_LOOP && lp->u.loop.exit) return false;
    Val a, c, d, e;
    if (!bounds_of(R, bd, llo, &a, &c) || !bounds_of(R, bd, lhi, &d, &e)) return false;
    *lo = a;
    *hi = b_binop(b, BIN_SUB, e, b_const_i(b, &ty_long, 1));
    Val runs = b_binop(b, BIN_LT, c, d); // (the least hi above the greatest lo: it always runs)
    bd->nonempty = bd->nonempty ? b_binop(b, BIN_BAND, bd->nonempty, runs) : runs;
  } else {
    const Node *d = R->def[v];
    if (!d || !ty_is_int(R->pf->vals[v].type)) return false;
    Val a, c, e, f;
    switch (d->kind) {
    case IR_CONST: *lo = *hi = b_const_i(b, &ty_long, d->u.cst.i); break;
    case IR_CAST:
      if (!ty_is_int(R->pf->vals[d->u.cast.a].type) || !bounds_of(R, bd, d->u.cast.a, lo, hi))
        return false;
      break;
    case IR_BINOP:
      if ((d->u.bin.op != BIN_ADD && d->u.bin.op != BIN_SUB && d->u.bin.op != BIN_MUL) ||
          !bounds_of(R, bd, d->u.bin.a, &a, &c) || !bounds_of(R, bd, d->u.bin.b, &e, &f))
        return false;
      if (d->u.bin.op == BIN_ADD) {
        *lo = b_add(b, a, e), *hi = b_add(b, c, f);
      } else if (d->u.bin.op == BIN_SUB) {
        *lo = b_sub(b, a, f), *hi = b_sub(b, c, e);
      } else { // the least and the greatest of the four corner products
        Val p[4] = {b_mul(b, a, e), b_mul(b, a, f), b_mul(b, c, e), b_mul(b, c, f)};
        *lo = *hi = p[0];
        for (int k = 1; k < 4; k++) {
          *lo = b_select(b, b_binop(b, BIN_LT, p[k], *lo), p[k], *lo);
          *hi = b_select(b, b_binop(b, BIN_GT, p[k], *hi), p[k], *hi);
        }
      }
      break;
    case IR_UNOP: case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT:
    case IR_FREE: case IR_COLL: case IR_RETURN:
      return false;
    }
  }
  bd->lo[v] = *lo, bd->hi[v] = *hi;
  return true;
}

// The section [least, greatest] of the elements a write at primal index v (in loops nested in
// the sequential loop n) reaches, as a region (no elements where those loops do not run):
// false where bounds_of cannot tell.
static bool interval_region(Rev *R, const Node *n, Val arr, Val v, const unsigned char *inside,
                            Region *reg, int *nreg, Loc loc) {
  Bounds bd = {inside, SCRATCH(const Node *, R->pf->nvals), SCRATCH(Val, R->pf->nvals),
               SCRATCH(Val, R->pf->nvals), 0, WALK_BUDGET};
  note_nested(n->u.loop.body, bd.loops);
  Builder *b = &R->b;
  Val lo, hi;
  if (!bounds_of(R, &bd, v, &lo, &hi)) return false;
  Val one = b_const_i(b, &ty_long, 1), zero = b_const_i(b, &ty_long, 0);
  Val cnt = b_binop(b, BIN_ADD, b_binop(b, BIN_SUB, hi, lo), one);
  Val ok = b_binop(b, BIN_GT, cnt, zero);
  if (bd.nonempty) ok = b_binop(b, BIN_BAND, ok, bd.nonempty);
  if (*nreg == MAX_REGIONS)
    diag_error(loc, "split the sequential loop", "a sequential loop overwrites more than %d "
               "array sections", MAX_REGIONS);
  reg[(*nreg)++] = (Region){arr, 0, 0, lo, b_select(b, ok, cnt, zero), 0, false, false};
  return true;
}

// A moving section of arr: vn elements from the primal expression pf (with the parallel
// loop index psub taken as psub_at, or psub_at - 1 with last), recomputed in each iteration.
static void add_moving(Rev *R, Region *reg, int *nreg, Val arr, Val pf, Val psub, Val psub_at,
                       bool last, Val vn, Loc loc) {
  // (several sections of one array, moving or not, may overlap: each is saved at the
  // iteration's start and restored as it was then, so any order of restoring gives that state)
  for (int r = 0; r < *nreg; r++)
    if (reg[r].arr == arr && reg[r].moving && index_same(R->def, reg[r].pf, pf) &&
        reg[r].psub == psub && reg[r].psub_last == last)
      return;
  if (*nreg == MAX_REGIONS)
    diag_error(loc, "split the sequential loop", "a sequential loop overwrites more than %d "
               "array sections", MAX_REGIONS);
  reg[(*nreg)++] = (Region){.arr = arr, .vn = vn, .moving = true, .pf = pf, .psub = psub,
                            .psub_at = psub_at, .psub_last = last};
}

// The elements [lo, hi) of arr (primal; hi == 0: the one element lo) as a region.
// cond (a value of f, 0: none): the section is written only where it holds (an if), and is
// then saved only where it holds (it may lie outside the array otherwise).
static void add_region(Rev *R, Region *reg, int *nreg, Val arr, Val lo, Val hi,
                       const unsigned char *inside, Val *memo, Loc loc, Val cond) {
  // (a temporary of one iteration; an inactive array too: the reverse runs the iterations
  // again from their states, which hold its elements, and its final values are outputs)
  if (inside[arr]) return;
  Val t = R->region_idx;
  const Node *al = R->def[arr];
  if (al && al->kind == IR_ALLOC && !can_materialize(R, lo, inside, &t, t ? 1 : 0)) {
    // an array of the function's own written where the section cannot be followed (in a
    // nested loop): saved whole
    for (int r = 0; r < *nreg; r++)
      if (reg[r].arr == arr && !reg[r].plo && !reg[r].moving && !reg[r].guarded) return;
    if (*nreg == MAX_REGIONS)
      diag_error(loc, "split the sequential loop", "a sequential loop overwrites more than %d "
                 "array sections", MAX_REGIONS);
    Val n = b_cast(&R->b, &ty_long, materialize(R, al->u.alloc.n, inside, memo, loc));
    reg[(*nreg)++] = (Region){arr, 0, 0, b_const_i(&R->b, &ty_long, 0), n, 0, false, false};
    return;
  }
  if (t && !hi && !can_materialize(R, lo, inside, NULL, 0) &&
      can_materialize(R, lo, inside, &t, 1)) { // y[t]: an element that moves with t
    if (cond)
      diag_error(loc, "write the element unconditionally (y[t] = c ? e : y[t])",
                 "an element this sequential loop overwrites moves with its index and is "
                 "written under an if: checkpointing it is not supported");
    add_moving(R, reg, nreg, arr, lo, 0, 0, false, b_const_i(&R->b, &ty_long, 1), loc);
    return;
  }
  if (!cond && !hi && R->region_loop && !can_materialize(R, lo, inside, NULL, 0) &&
      interval_region(R, R->region_loop, arr, lo, inside, reg, nreg, loc))
    return; // (in nested loops: the elements they reach)
  for (int r = 0; r < *nreg && !cond; r++) // the same section again
    if (reg[r].arr == arr && !reg[r].guarded && reg[r].plo && index_same(R->def, reg[r].plo, lo) &&
        (hi ? reg[r].phi && index_same(R->def, reg[r].phi, hi) : !reg[r].phi))
      return;
  if (*nreg == MAX_REGIONS)
    diag_error(loc, "split the sequential loop", "a sequential loop overwrites more than %d "
               "array sections", MAX_REGIONS);
  Builder *b = &R->b;
  Val vlo = b_cast(b, &ty_long, materialize(R, lo, inside, memo, loc)), vn;
  if (hi) {
    Val d = b_binop(b, BIN_SUB, b_cast(b, &ty_long, materialize(R, hi, inside, memo, loc)), vlo);
    vn = b_select(b, b_binop(b, BIN_GT, d, b_const_i(b, &ty_long, 0)), d, b_const_i(b, &ty_long, 0));
  } else {
    vn = b_const_i(b, &ty_long, 1);
  }
  if (cond) vn = b_select(b, cond, vn, b_const_i(b, &ty_long, 0));
  reg[(*nreg)++] = (Region){arr, lo, hi, vlo, vn, 0, false, cond != 0};
}

#define MAX_WRITE_EXPRS 8

typedef struct {
  Node *const *def;
  Val arr;
  Val idx[MAX_WRITE_EXPRS]; // the different index expressions of its writes
  int n;
  bool over; // more of them, or a write in a loop nested in the body
} WriteIndex;

static WalkNext write_index_of(Node *n, void *ctx) {
  WriteIndex *w = ctx;
  if (n->kind == IR_LOOP || n->kind == IR_PAR) { // (runs several times per iteration)
    w->over |= ir_writes(&(Block){&n, 1, 1, NULL, 0}, w->arr);
    return WALK_SKIP;
  }
  if (n->kind == IR_WRITE && n->u.mem.arr == w->arr) {
    int k = 0;
    while (k < w->n && !index_same(w->def, w->idx[k], n->u.mem.idx)) k++;
    if (k == w->n) {
      if (w->n == MAX_WRITE_EXPRS) w->over = true;
      else w->idx[w->n++] = n->u.mem.idx;
    }
  }
  return WALK_INTO;
}

typedef struct {
  Val arr;
  Val idx[MAX_WRITE_EXPRS]; // the index expressions of its writes, at any depth
  int n;
  bool over;
} AllWrites;

static WalkNext all_writes_of(Node *n, void *ctx) {
  AllWrites *w = ctx;
  if (n->kind == IR_WRITE && n->u.mem.arr == w->arr) {
    int k = 0;
    while (k < w->n && w->idx[k] != n->u.mem.idx) k++;
    if (k == w->n) {
      if (w->n == MAX_WRITE_EXPRS) w->over = true;
      else w->idx[w->n++] = n->u.mem.idx;
    }
  }
  return WALK_INTO;
}

// A polynomial of values from outside the loop (poly_of), computed at the builder's point.
static Val poly_value(Rev *R, const Poly *p) {
  Builder *b = &R->b;
  Val sum = b_const_i(b, &ty_long, 0);
  for (int k = 0; k < p->n; k++) {
    if (!p->t[k].c) continue; // (a term that the difference cancelled)
    Val term = b_const_i(b, &ty_long, p->t[k].c);
    for (int d = 0; d < POLY_DEG && p->t[k].v[d]; d++)
      term = b_binop(b, BIN_MUL, term, b_cast(b, &ty_long, P(p->t[k].v[d])));
    sum = b_binop(b, BIN_ADD, sum, term);
  }
  return sum;
}

// Parallel loop n (in a sequential loop) writes arr at a*i + b_k, not at its index i itself
// (y[2*i], the halves of a state vector at offsets that may move with the iterations): the
// section from the least to the greatest element its writes reach, of a size that every
// iteration shares: the writes share a, and the b_k differ by values from outside the loop.
static void par_region(Rev *R, const Node *n, Val arr, const unsigned char *inside, Val *memo,
                       Region *reg, int *nreg, Val cond) {
  WriteIndex wi = {R->def, arr, {0}, 0, false};
  ir_walk(n->u.par.body, &(Walker){.pre = write_index_of, .ctx = &wi});
  const char *name = R->pf->vals[arr].hint;
  unsigned char *in_par = SCRATCH(unsigned char, R->pf->nvals);
  ir_inside(n->u.par.body, in_par);
  in_par[n->u.par.idx] = 1;
  Val i = n->u.par.idx, t = R->region_idx, both[2] = {i, t};
  const char *hint = "write the array at the loop index itself (y[i] = ...) or at a*i + b with "
                     "a and b computed before the loop (b may move with the sequential loop's "
                     "index), or write the new values to another array";
  bool ok = !wi.over && wi.n > 0 && can_materialize(R, n->u.par.lo, inside, NULL, 0) &&
            can_materialize(R, n->u.par.hi, inside, NULL, 0);
  IndexForm f = ok ? index_form(R->def, in_par, wi.idx[0], i) : (IndexForm){0};
  ok &= f.affine && f.coef && can_materialize(R, wi.idx[0], inside, both, t ? 2 : 1);
  // the other expressions: the first plus a difference d_k from outside the loop
  Poly p0 = ok ? poly_of(R->pf, R->def, wi.idx[0]) : (Poly){0};
  Poly d[MAX_WRITE_EXPRS];
  for (int k = 1; ok && k < wi.n; k++) {
    IndexForm g = index_form(R->def, in_par, wi.idx[k], i);
    Poly pk = poly_of(R->pf, R->def, wi.idx[k]);
    ok &= g.affine && g.coef == f.coef && p0.ok && pk.ok;
    d[k] = pk;
    for (int q = 0; ok && q < p0.n; q++) { // d_k = pk - p0
      Mono m = p0.t[q];
      int j = 0;
      while (j < d[k].n && memcmp(d[k].t[j].v, m.v, sizeof m.v)) j++;
      if (j < d[k].n) d[k].t[j].c -= m.c;
      else if (d[k].n < POLY_TERMS) d[k].t[d[k].n] = m, d[k].t[d[k].n++].c = -m.c;
      else ok = false;
    }
    for (int q = 0; ok && q < d[k].n; q++)
      for (int v = 0; v < POLY_DEG && d[k].t[q].v[v]; v++)
        ok &= !d[k].t[q].c || !inside[d[k].t[q].v[v]];
  }
  if (!ok && !cond && R->region_loop) { // nested in loops: the elements they reach
    AllWrites aw = {arr, {0}, 0, false};
    ir_walk(n->u.par.body, &(Walker){.pre = all_writes_of, .ctx = &aw});
    bool all = aw.n > 0 && !aw.over;
    for (int k = 0; all && k < aw.n; k++)
      all = interval_region(R, R->region_loop, arr, aw.idx[k], inside, reg, nreg, n->loc);
    if (all) return;
  }
  if (!ok)
    diag_error(n->loc, hint, "this loop, in a sequential loop, writes '%s' at an index that "
               "checkpointing does not follow", name);
  if (cond)
    diag_error(n->loc, "move the if into the loop's body", "a parallel loop in a sequential loop "
               "writes '%s' at a*i + b under an if: checkpointing it is not supported", name);
  Builder *b = &R->b;
  long long a = f.coef < 0 ? -f.coef : f.coef;
  Val lo = b_cast(b, &ty_long, materialize(R, n->u.par.lo, inside, memo, n->loc));
  Val hi = b_cast(b, &ty_long, materialize(R, n->u.par.hi, inside, memo, n->loc));
  Val one = b_const_i(b, &ty_long, 1), zero = b_const_i(b, &ty_long, 0);
  Val dmin = zero, dmax = zero; // the least and greatest d_k (d_0 = 0)
  for (int k = 1; k < wi.n; k++) {
    Val dk = poly_value(R, &d[k]);
    dmin = b_select(b, b_binop(b, BIN_LT, dk, dmin), dk, dmin);
    dmax = b_select(b, b_binop(b, BIN_GT, dk, dmax), dk, dmax);
  }
  Val span = b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, b_binop(b, BIN_SUB, b_binop(b, BIN_SUB, hi, lo), one),
                                         b_const_i(b, &ty_long, a)), one);
  span = b_binop(b, BIN_ADD, span, b_binop(b, BIN_SUB, dmax, dmin));
  Val vn = b_select(b, b_binop(b, BIN_GT, hi, lo), span, zero);
  Val at = f.coef > 0 ? n->u.par.lo : n->u.par.hi;
  if (can_materialize(R, wi.idx[0], inside, &i, 1)) { // the same section in every iteration
    Val *m2 = SCRATCH(Val, R->pf->nvals);
    Val x = materialize(R, at, inside, memo, n->loc);
    m2[i] = f.coef > 0 ? x : b_binop(b, BIN_SUB, x, b_const_i(b, val_type(R->f, x), 1));
    Val vlo = b_cast(b, &ty_long, materialize(R, wi.idx[0], inside, m2, n->loc));
    vlo = b_binop(b, BIN_ADD, vlo, dmin);
    if (*nreg == MAX_REGIONS)
      diag_error(n->loc, "split the sequential loop", "a sequential loop overwrites more than %d "
                 "array sections", MAX_REGIONS);
    reg[(*nreg)++] = (Region){arr, 0, 0, vlo, vn, 0, false, false};
    return;
  }
  add_moving(R, reg, nreg, arr, wi.idx[0], i, at, f.coef < 0, vn, n->loc);
  reg[*nreg - 1].shift = dmin;
}

// What the statements of b (in a sequential loop) overwrite, as regions.
void loop_regions(Rev *R, const Block *b, const unsigned char *inside, Val *memo,
                         Region *reg, int *nreg, Val cond) {
  Builder *bb = &R->b;
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    switch (n->kind) {
    case IR_WRITE:
      add_region(R, reg, nreg, n->u.mem.arr, n->u.mem.idx, 0, inside, memo, n->loc, cond);
      break;
    case IR_IF: {
      Val arrs[MAX_REGIONS];
      int na = 0;
      written_arrays(n->u.ifs.then, arrs, &na);
      written_arrays(n->u.ifs.els, arrs, &na);
      if (!na) break;
      Val mc = materialize(R, n->u.ifs.cond, inside, memo, n->loc);
      Val c = b_binop(bb, BIN_NE, mc, b_const_i(bb, val_type(R->f, mc), 0));
      Val nc = b_unop(bb, UN_NOT, c);
      loop_regions(R, n->u.ifs.then, inside, memo, reg, nreg, cond ? b_binop(bb, BIN_LAND, cond, c) : c);
      loop_regions(R, n->u.ifs.els, inside, memo, reg, nreg, cond ? b_binop(bb, BIN_LAND, cond, nc) : nc);
      break;
    }
    case IR_LOOP: loop_regions(R, n->u.loop.body, inside, memo, reg, nreg, cond); break;
    case IR_PAR: {
      Val arrs[MAX_REGIONS];
      int na = 0;
      written_arrays(n->u.par.body, arrs, &na);
      for (int k = 0; k < na; k++) {
        if (writes_at_index(n->u.par.body, arrs[k], n->u.par.idx) || inside[arrs[k]]) {
          add_region(R, reg, nreg, arrs[k], n->u.par.lo, n->u.par.hi, inside, memo, n->loc, cond);
          continue;
        }
        par_region(R, n, arrs[k], inside, memo, reg, nreg, cond);
      }
      for (int h = 0; h < n->u.par.nhists; h++) {
        const Hist *hc = &n->u.par.hists[h];
        if (inside[hc->arr]) continue;
        Val lo = materialize(R, hc->lo, inside, memo, n->loc);
        Val len = materialize(R, hc->len, inside, memo, n->loc);
        Val vlo = b_cast(bb, &ty_long, lo), vn = b_cast(bb, &ty_long, len);
        vn = b_select(bb, b_binop(bb, BIN_GT, vn, b_const_i(bb, &ty_long, 0)), vn, b_const_i(bb, &ty_long, 0));
        if (cond) vn = b_select(bb, cond, vn, b_const_i(bb, &ty_long, 0));
        if (*nreg == MAX_REGIONS)
          diag_error(n->loc, "split the sequential loop", "a sequential loop overwrites more "
                     "than %d array sections", MAX_REGIONS);
        reg[(*nreg)++] = (Region){hc->arr, 0, 0, vlo, vn, 0, false, cond != 0};
      }
      break;
    }
    case IR_COLL: // (its own temporary, allocated in the same block)
      IR_ASSERT(!coll_writes(n) || inside[coll_writes(n)]);
      break;
    case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ:
    case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
    case IR_RETURN: break;
    }
  }
}

static void loop_inside(const Node *n, unsigned char *inside) {
  ir_inside(&(Block){(Node **)&n, 1, 1, NULL, 0}, inside);
  for (int k = 0; k < n->u.loop.ncarry; k++) inside[n->u.loop.outs[k]] = 0;
}

typedef struct {
  Val v;
  bool *found;
} FoundVal;

static void found_val(Val *v, void *ctx) {
  FoundVal *f = ctx;
  if (*v == f->v) *f->found = true;
}

// Does n read arr (an IR_READ, a copy from it, an argument)?
static WalkNext reads_of(Node *n, void *ctx) {
  Val *arr = ctx;
  if (n->kind == IR_WRITE || n->kind == IR_FREE || n->kind == IR_ALLOC)
    return WALK_INTO; // (mem.arr: written; idx and v are scalars)
  if (n->kind == IR_COPY || n->kind == IR_SORT)
    return n->u.copy.src == *arr || (n->u.copy.swap && n->u.copy.dst == *arr) ? WALK_STOP : WALK_INTO;
  bool found = false;
  ir_node_uses(n, found_val, &(FoundVal){*arr, &found});
  return found ? WALK_STOP : WALK_INTO;
}

static bool reads_array(const Block *b, Val arr) {
  return ir_walk(b, &(Walker){.pre = reads_of, .ctx = &arr}) != NULL;
}

// The statements around loop n in block b, innermost first, into path[] (the block and the
// statement's index in it at each level, the enclosing node); false: n is not in b.
typedef struct {
  const Block *blk;
  int at;
} PathStep;

static bool path_to(const Block *b, const Node *n, PathStep *path, int *depth, int cap) {
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    bool found = s == n;
    if (!found && s->kind == IR_IF)
      found = path_to(s->u.ifs.then, n, path, depth, cap) || path_to(s->u.ifs.els, n, path, depth, cap);
    if (!found && s->kind == IR_LOOP) found = path_to(s->u.loop.body, n, path, depth, cap);
    if (!found && s->kind == IR_PAR) found = path_to(s->u.par.body, n, path, depth, cap);
    if (found) {
      if (*depth == cap) return false;
      path[(*depth)++] = (PathStep){b, i};
      return true;
    }
  }
  return false;
}

static bool adjoint_reads(Rev *R, const Node *n, Val arr);

// Does statement s, before a loop whose reverse leaves arr changed, read arr again in its own
// reverse (which runs after that loop's)?  A sequential loop where its reverse uses the
// values (adjoint_reads), an if or a parallel loop where it reads arr at all (their reverses
// may run their statements again); a read or any other statement no: its value was taken
// in the forward sweep, before.
static bool rereads_after(Rev *R, const Node *s, Val arr) {
  if (s->kind == IR_LOOP) return adjoint_reads(R, s, arr);
  if (s->kind == IR_IF || s->kind == IR_PAR)
    return reads_array(&(Block){(Node **)&s, 1, 1, NULL, 0}, arr);
  return false;
}

// In a parallel loop's reverse: must sequential loop n, which writes the iteration's array
// arr, leave it after its reverse as it was before the loop?  Only where something reads it
// again before arr is set again: a statement before n (in n's block, or before the loops and
// ifs around it) whose reverse reads it (rereads_after), up to the first enclosing sequential
// loop that reads arr (that one saves it per iteration where its reverse needs it, and
// restores it before its iterations run again).  Inside another parallel loop of the body,
// or deeper than the walk follows: yes.
static bool restored_after(Rev *R, const Node *n, Val arr) {
  enum { DEPTH = 32 };
  PathStep path[DEPTH];
  int depth = 0;
  if (!path_to(R->par->u.par.body, n, path, &depth, DEPTH)) return true;
  for (int d = 0; d < depth; d++) { // path[0]: n's own block; path[depth - 1]: the body
    for (int i = 0; i < path[d].at; i++)
      if (rereads_after(R, path[d].blk->stmts[i], arr)) return true;
    if (d + 1 == depth) return false; // (the body: arr is allocated in it)
    const Node *around = path[d + 1].blk->stmts[path[d + 1].at];
    if (around->kind == IR_PAR) return true;
    if (around->kind == IR_LOOP && reads_array(around->u.loop.body, arr)) return false;
  }
  return true;
}

// ---- which of an iteration's arrays the reverse of a loop reads ----
//
// The reverse of sequential loop n in a parallel loop's body runs each iteration again, then
// its adjoint.  The elements an iteration array held at the iteration's start matter only
// where a value read from it reaches something the reverse uses: an index, a condition, a
// bound, an integer, an accumulated value, an operand of a rule that reads its operands (a
// product, a quotient, a math function, a comparison).  Values that only pass through +, -,
// negation, float casts, a select's arms, carried values and writes to arrays whose elements
// do not matter reach no rule: where no read of arr reaches one, arr's elements need not be
// saved and restored per iteration (the re-run computes them from whatever arr holds, and
// nothing reads what it computes).  A small to-be-recorded analysis, as Tapenade's.
typedef struct {
  Rev *R;
  unsigned char *inside, *need, *arrneed;
  const Node **loopof; // a carried value or output of a loop in n: that loop
  int *slot;           // ... and which one
  Val *work;
  int nwork;
  bool unknown; // a statement the analysis does not follow: every array matters
} Tbr;

static void tbr_mark(Tbr *t, Val v) {
  if (v && t->inside[v] && !t->need[v]) t->need[v] = 1, t->work[t->nwork++] = v;
}

static bool tbr_float(const Tbr *t, Val v) {
  return ty_is_float(t->R->pf->vals[v].type);
}

// x * c, c * x, x / c with c a constant: linear in x, the rule reads c alone.
static bool tbr_scaled(const Tbr *t, const Node *s) {
  const Node *a = t->R->def[s->u.bin.a], *b = t->R->def[s->u.bin.b];
  return (s->u.bin.op == BIN_MUL && ((a && a->kind == IR_CONST) || (b && b->kind == IR_CONST))) ||
         (s->u.bin.op == BIN_DIV && b && b->kind == IR_CONST);
}

// The uses whose values a reverse rule reads, in b (and the loops' carried values, to follow).
static void tbr_roots(Tbr *t, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    switch (s->kind) {
    case IR_CONST: break;
    case IR_UNOP:
      if (s->u.un.op != UN_NEG || !tbr_float(t, s->out)) tbr_mark(t, s->u.un.a);
      break;
    case IR_BINOP:
      if (!tbr_float(t, s->out) || (s->u.bin.op != BIN_ADD && s->u.bin.op != BIN_SUB &&
                                    !tbr_scaled(t, s)))
        tbr_mark(t, s->u.bin.a), tbr_mark(t, s->u.bin.b);
      break;
    case IR_CALL: tbr_mark(t, s->u.call.a), tbr_mark(t, s->u.call.b), tbr_mark(t, s->u.call.c); break;
    case IR_CAST:
      if (!tbr_float(t, s->out) || !tbr_float(t, s->u.cast.a)) tbr_mark(t, s->u.cast.a);
      break;
    case IR_READ: case IR_WRITE: tbr_mark(t, s->u.mem.idx); break;
    case IR_ACC: case IR_UPDATE: tbr_mark(t, s->u.mem.idx), tbr_mark(t, s->u.mem.v); break;
    case IR_IF:
      tbr_mark(t, s->u.ifs.cond);
      tbr_roots(t, s->u.ifs.then), tbr_roots(t, s->u.ifs.els);
      break;
    case IR_LOOP:
      tbr_mark(t, s->u.loop.lo), tbr_mark(t, s->u.loop.hi);
      for (int k = 0; k < s->u.loop.ncarry; k++) {
        t->loopof[s->u.loop.params[k]] = t->loopof[s->u.loop.outs[k]] = s;
        t->slot[s->u.loop.params[k]] = t->slot[s->u.loop.outs[k]] = k;
      }
      tbr_roots(t, s->u.loop.body);
      break;
    case IR_EXT: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
    case IR_COLL: case IR_RETURN: t->unknown = true; break;
    }
  }
}

// Values written to arr in b: they matter once arr's elements do.
static void tbr_writes(Tbr *t, const Block *b, Val arr) {
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    if (s->kind == IR_WRITE && s->u.mem.arr == arr) tbr_mark(t, s->u.mem.v);
    if (s->kind == IR_IF) tbr_writes(t, s->u.ifs.then, arr), tbr_writes(t, s->u.ifs.els, arr);
    if (s->kind == IR_LOOP) tbr_writes(t, s->u.loop.body, arr);
  }
}

// Does the reverse of loop n (in a parallel loop's body) use a value it reads from arr?
static bool adjoint_reads(Rev *R, const Node *n, Val arr) {
  if (!reads_array(n->u.loop.body, arr)) return false;
  int nv = R->pf->nvals;
  Tbr t = {R, SCRATCH(unsigned char, nv), SCRATCH(unsigned char, nv), SCRATCH(unsigned char, nv),
           (const Node **)SCRATCH(Node *, nv), SCRATCH(int, nv), SCRATCH(Val, nv), 0, false};
  loop_inside(n, t.inside);
  Block self = {(Node **)&n, 1, 1, NULL, 0};
  tbr_roots(&t, &self);
  if (t.unknown) return true;
  for (Val v = 1; v < (Val)nv; v++) // integers: indices, counts, conditions
    if (t.inside[v] && !tbr_float(&t, v) && R->pf->vals[v].type->kind != TY_PTR) tbr_mark(&t, v);
  while (t.nwork) {
    Val v = t.work[--t.nwork];
    const Node *d = R->def[v];
    if (t.loopof[v]) { // a carried value or an output: its start and each iteration's value
      const Node *l = t.loopof[v];
      tbr_mark(&t, l->u.loop.init[t.slot[v]]);
      tbr_mark(&t, l->u.loop.body->yields[t.slot[v]]);
      continue;
    }
    if (!d) continue;
    switch (d->kind) {
    case IR_UNOP: tbr_mark(&t, d->u.un.a); break;
    case IR_BINOP: tbr_mark(&t, d->u.bin.a), tbr_mark(&t, d->u.bin.b); break;
    case IR_CAST: tbr_mark(&t, d->u.cast.a); break;
    case IR_READ:
      if (!t.arrneed[d->u.mem.arr]) {
        t.arrneed[d->u.mem.arr] = 1;
        tbr_writes(&t, &self, d->u.mem.arr);
      }
      break;
    case IR_IF:
      for (int k = 0; k < d->u.ifs.nouts; k++)
        if (d->u.ifs.outs[k] == v)
          tbr_mark(&t, d->u.ifs.then->yields[k]), tbr_mark(&t, d->u.ifs.els->yields[k]);
      break;
    case IR_CONST: case IR_CALL: case IR_EXT: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
    case IR_COLL: case IR_RETURN: break; // (a call's operands are marked already)
    }
  }
  return t.arrneed[arr];
}

// v without the integer casts that keep every value (to a type as wide, or wider from
// unsigned): (long)d is d.
static Val uncast(Rev *R, Val v) {
  for (const Node *d; v && (d = R->def[v]) && d->kind == IR_CAST;) {
    const Type *to = R->pf->vals[v].type, *from = R->pf->vals[d->u.cast.a].type;
    if (!ty_is_int(to) || !ty_is_int(from)) break;
    IntInfo t = ty_int_info(to), f = ty_int_info(from);
    if (t.bits < f.bits || (f.sign && !t.sign) || (!f.sign && t.sign && t.bits == f.bits)) break;
    v = d->u.cast.a;
  }
  return v;
}

// Does every iteration of the loop whose body is b write all of the iteration's array arr
// (the n elements it was allocated with) before anything reads it?  The first statement that
// touches arr is a sequential loop from 0 to that n, without a break, that writes arr at its
// index unconditionally and reads none of it (ADBench's subtract(d, x, y, out) into malloc'd
// scratch of d elements).  Then the elements at an iteration's start are never read (a read
// beyond the n elements would be the program's own out-of-bounds read).
static bool overwritten_whole(Rev *R, const Block *b, Val arr) {
  const Node *a = R->def[arr];
  if (!a || a->kind != IR_ALLOC) return false;
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    Block one = {(Node **)&b->stmts[i], 1, 1, NULL, 0};
    if (!reads_array(&one, arr) && !ir_writes(&one, arr)) continue;
    if (s->kind != IR_LOOP || s->u.loop.exit || reads_array(s->u.loop.body, arr)) return false;
    const Node *lo = R->def[uncast(R, s->u.loop.lo)];
    if (!lo || lo->kind != IR_CONST || lo->u.cst.i != 0 ||
        !index_same(R->def, uncast(R, s->u.loop.hi), uncast(R, a->u.alloc.n)))
      return false;
    for (int k = 0; k < s->u.loop.body->n; k++) {
      const Node *w = s->u.loop.body->stmts[k];
      if (w->kind == IR_WRITE && w->u.mem.arr == arr && uncast(R, w->u.mem.idx) == s->u.loop.idx)
        return true;
    }
    return false;
  }
  return false;
}

// The regions of loop n, bounds computed at the builder's point (before the loop).
int regions_of(Rev *R, const Node *n, Region *reg) {
  if (R->par) { // in a parallel loop's reverse: the iteration's arrays it writes
    Val arrs[MAX_REGIONS];
    int na = 0, nreg = 0;
    written_arrays(n->u.loop.body, arrs, &na);
    for (int k = 0; k < na; k++) {
      Val arr = arrs[k];
      if (!R->in_par[arr]) continue;
      // no value the reverse uses read from it in the loop's iterations (or none the
      // iteration did not write first), nor read after its reverse before it is set again:
      // nothing to save
      if ((!adjoint_reads(R, n, arr) || overwritten_whole(R, n->u.loop.body, arr)) &&
          !restored_after(R, n, arr))
        continue;
      if (writes_at_index(n->u.loop.body, arr, n->u.loop.idx)) { // arr[t]: that element
        reg[nreg++] = (Region){.arr = arr, .vn = b_const_i(&R->b, &ty_long, 1), .moving = true,
                               .at_idx = true};
        continue;
      }
      const Node *a = R->def[arr];
      IR_ASSERT(a && a->kind == IR_ALLOC);
      reg[nreg++] = (Region){arr, 0, 0, b_const_i(&R->b, &ty_long, 0),
                             b_cast(&R->b, &ty_long, P(a->u.alloc.n)), 0, false, false};
    }
    return nreg;
  }
  unsigned char *inside = SCRATCH(unsigned char, R->pf->nvals);
  loop_inside(n, inside);
  Val *memo = SCRATCH(Val, R->pf->nvals);
  int nreg = 0;
  Val outer = R->region_idx;
  const Node *outer_loop = R->region_loop;
  R->region_idx = n->u.loop.idx;
  R->region_loop = n;
  loop_regions(R, n->u.loop.body, inside, memo, reg, &nreg, 0);
  R->region_idx = outer;
  R->region_loop = outer_loop;
  return nreg;
}

// Is every element of arr that body b writes written, before anything reads arr, in every
// iteration?  (Its one section is written first by a parallel loop that does not read arr,
// unconditionally at the loop index; elements outside the section are never written.)
static bool overwritten_first(const Block *b, Val arr) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    Block one = {(Node **)&b->stmts[i], 1, 1, NULL, 0};
    bool reads = block_rereads(&one, arr, true), writes = ir_writes(&one, arr);
    if (!reads && !writes) continue;
    if (n->kind == IR_LOOP) { // a nested loop that may run no iterations: nothing after it
      for (int j = i + 1; j < b->n; j++) {
        Block rest = {(Node **)&b->stmts[j], 1, 1, NULL, 0};
        if (block_rereads(&rest, arr, true) || ir_writes(&rest, arr)) return false;
      }
      return overwritten_first(n->u.loop.body, arr);
    }
    if (n->kind != IR_PAR || reads || n->u.par.nhists) return false;
    for (int k = 0; k < n->u.par.body->n; k++) {
      const Node *s = n->u.par.body->stmts[k];
      if (s->kind == IR_WRITE && s->u.mem.arr == arr && s->u.mem.idx == n->u.par.idx) return true;
    }
    return false;
  }
  return false;
}

// Regions whose values at an iteration's start are never read: saved once, before the loop.
static void mark_once(Rev *R, const Node *n, Region *reg, int nreg) {
  for (int r = 0; r < nreg; r++) {
    bool single = reg[r].plo && reg[r].phi && !reg[r].moving;
    for (int q = 0; q < nreg; q++)
      single &= q == r || reg[q].arr != reg[r].arr;
    reg[r].once = single && overwritten_first(n->u.loop.body, reg[r].arr);
  }
  (void)R;
}

static Val tape_alloc(Rev *R, Type *elem, Val n, const char *hint) {
  Node *al = node_new(R->a, IR_ALLOC, R->b.loc);
  al->u.alloc.n = n;
  al->u.alloc.tape = !R->par;
  al->out = fn_val(R->f, ty_ptr(R->a, elem, false), arena_printf(R->a, "%s_ckpt", hint ? hint : "carried"));
  b_push(&R->b, al);
  return al->out;
}

static void tape_free(Rev *R, Val tape, Val n) {
  Node *fr = node_new(R->a, IR_FREE, R->b.loc);
  fr->u.copy.dst = tape;
  fr->u.copy.n = R->par ? 0 : n; // (an iteration's tapes are not counted: adsoac.h)
  fr->u.copy.tape = !R->par;
  b_push(&R->b, fr);
}

// dst[doff : doff + n] = src[off : off + n]
static void copy_elems(Rev *R, Val dst, Val doff, Val src, Val off, Val n) {
  Node *cp = node_new(R->a, IR_COPY, R->b.loc);
  cp->u.copy.dst = dst;
  cp->u.copy.doff = doff;
  cp->u.copy.src = src;
  cp->u.copy.off = off;
  cp->u.copy.n = n;
  b_push(&R->b, cp);
}

static const char *checkpoint_note(Rev *R, const Node *n, const LoopAux *x) {
  Buf b = {.arena = R->cx->scratch};
  if (n->u.loop.note) buf_printf(&b, "%s; ", n->u.loop.note);
  buf_puts(&b, "f_vjp saves per iteration:");
  int items = 0;
  for (int r = 0; r < x->nreg; r++) {
    bool seen = false;
    for (int q = 0; q < r; q++) seen |= x->reg[q].arr == x->reg[r].arr;
    if (!seen && !x->reg[r].once)
      buf_printf(&b, x->reg[r].at_idx ? "%s the element of %s at its index"
                                      : "%s the elements of %s it overwrites", items++ ? "," : "",
                 R->pf->vals[x->reg[r].arr].hint);
  }
  for (int k = 0; k < n->u.loop.ncarry; k++)
    if (x->stape[k]) {
      const char *h = R->pf->vals[n->u.loop.params[k]].hint;
      buf_printf(&b, "%s %s", items++ ? "," : "", h ? h : "a carried value");
    }
  if (!items && !x->all) buf_puts(&b, " nothing");
  if (x->all)
    buf_printf(&b, "%s the state each iteration leaves and the values it computes (store-all: it "
                 "calls costly functions); the reverse sweep starts each iteration's reverse "
                 "from them, without running the iteration again", items ? "," : "");
  else
    buf_puts(&b, "; one state per iteration of this loop, restored by the reverse sweep "
                 "iteration by iteration");
  for (int r = 0; r < x->nreg; r++)
    if (x->reg[r].once)
      buf_printf(&b, "; %s is overwritten before it is read: saved once, before the loop",
                 R->pf->vals[x->reg[r].arr].hint);
  const char *s = arena_strdup(R->a, b.data);
  buf_free(&b);
  return s;
}

// ---- store-all: a loop's iterations kept instead of run again ----
//
// The reverse of a sequential loop restores each iteration's state and runs the iteration
// again (checkpointing: one state per iteration, or per strip with stripmine(L)).  Where its
// iterations are costly to run again (a transcendental function, a function of the user's)
// the forward run is instead the forward sweep of the body: each iteration keeps its
// intermediates (its scalars on tapes, its arrays, the saves of its statements), the state
// it leaves is saved as well, and the reverse of iteration t starts from that state with
// those values: the body runs once forward, not twice (ADBench's LSTM: the time loop and the
// layer loop of each step).  Memory: the trip count times what one iteration computes, as a
// taping tool keeps; a loop with stripmine(L) (or under --stripmine) keeps checkpointing at
// its outer levels and keeps all only within a strip.  Loops whose reverse runs only cheap
// arithmetic again (stencils, whose maps rev_skip.c mostly skips) keep checkpointing: their
// intermediates are grid-sized.

static WalkNext costly_visit(Node *n, void *ctx) {
  (void)ctx;
  if (n->kind == IR_EXT) return WALK_STOP;
  if (n->kind != IR_CALL) return WALK_INTO;
  static const MathFn cheap[] = {M_SQRT, M_FABS, M_FMIN, M_FMAX, M_FMA, M_COPYSIGN,
                                 M_FLOOR, M_CEIL, M_ROUND, M_TRUNC};
  for (size_t k = 0; k < sizeof cheap / sizeof cheap[0]; k++)
    if (n->u.call.fn == cheap[k]) return WALK_INTO;
  return WALK_STOP;
}

static bool keeps_all(Rev *R, const Node *n, bool top) {
  if (R->par || n->u.loop.exit || R->cx->cuda || n->u.loop.strips) return false;
  if (top && n->u.loop.stripmine) return false; // (stripmine(1): one state per iteration)
  return ir_walk(n->u.loop.body, &(Walker){.pre = costly_visit}) != NULL;
}

typedef struct {
  const unsigned char *def;
  unsigned char *used;
} Crossing;

static void crossing_use(Val *v, void *ctx) {
  Crossing *c = ctx;
  if (c->def[*v]) c->used[*v] = 1;
}

static WalkNext crossing_node(Node *n, void *ctx) {
  ir_node_uses(n, crossing_use, ctx);
  return WALK_INTO;
}

static void crossing_yields(Block *b, void *ctx) {
  for (int i = 0; i < b->nyields; i++) crossing_use(&b->yields[i], ctx);
}

typedef struct {
  Arena *a;
  Val *v;
  int n, cap;
} Defs;

static void collect_def(Val *v, void *ctx) {
  Defs *d = ctx;
  if (d->n == d->cap) {
    Val *bigger = ARENA_ARRAY(d->a, Val, 2 * d->cap + 8);
    if (d->n) memcpy(bigger, d->v, sizeof(Val) * (size_t)d->n);
    d->v = bigger, d->cap = 2 * d->cap + 8;
  }
  d->v[d->n++] = *v;
}

// A value statement d defines for its nested blocks alone (a loop's index and carried
// values, a parallel loop's index and scans' running values).
static bool inner_def(const Node *d, Val v) {
  if (d->kind == IR_LOOP) {
    if (v == d->u.loop.idx) return true;
    for (int k = 0; k < d->u.loop.ncarry; k++)
      if (v == d->u.loop.params[k]) return true;
  }
  if (d->kind == IR_PAR) {
    if (v == d->u.par.idx) return true;
    for (int k = 0; k < d->u.par.nscans; k++)
      for (int f = 0; f < d->u.par.scans[k].nf; f++)
        if (v == d->u.par.scans[k].excl[f]) return true;
  }
  return false;
}

static void mark_def(Val *v, void *ctx) {
  ((unsigned char *)ctx)[*v] = 1;
}

static void rename_use(Val *v, void *ctx) {
  const Val *to = ctx;
  if (to[*v]) *v = to[*v];
}

static WalkNext rename_node(Node *n, void *ctx) {
  ir_node_uses(n, rename_use, ctx);
  return WALK_INTO;
}

static void rename_yields(Block *b, void *ctx) {
  for (int i = 0; i < b->nyields; i++) rename_use(&b->yields[i], ctx);
}

static void mark_defs(const Block *b, unsigned char *def) {
  for (int i = 0; i < b->n; i++) {
    Node *d = b->stmts[i];
    ir_node_defs(d, mark_def, def);
    if (d->kind == IR_IF) mark_defs(d->u.ifs.then, def), mark_defs(d->u.ifs.els, def);
  }
}

typedef struct {
  Rev *R;
  const LoopAux *x;
  unsigned char *used;
  Val *to;  // a kept value's read in the reverse body
  Builder rd; // the reads, for the start of the reverse body
  int pos;  // where the next tape's allocation goes in x->host
  Val s;    // the reverse body's iteration number
} Keep;

// The values that block blk of the forward body (the body or a branch of one of its ifs)
// defines and the reverse body uses: each written at the end of blk (where it was computed)
// and read back, unconditionally, at the start of the reverse body (a branch not taken left
// its element unwritten, and the reverse reads it only under the same condition).
static void keep_block(Keep *k, Block *blk) {
  Rev *R = k->R;
  Builder fw = {R->f, blk, k->x->fwd->loc};
  int nb = blk->n;
  for (int i = 0; i < nb; i++) {
    Node *d = blk->stmts[i];
    if (d->kind == IR_IF) keep_block(k, d->u.ifs.then), keep_block(k, d->u.ifs.els);
    if (d->kind == IR_CONST && d->out && k->used[d->out]) { // (made again)
      Node *c = node_new(R->a, IR_CONST, d->loc);
      c->u = d->u;
      c->out = k->to[d->out] = fn_val(R->f, val_type(R->f, d->out), R->f->vals[d->out].hint);
      b_push(&k->rd, c);
      k->used[d->out] = 0;
      continue;
    }
    Defs ds = {R->cx->scratch, NULL, 0, 0};
    ir_node_defs(d, collect_def, &ds);
    for (int e = 0; e < ds.n; e++) {
      Val v = ds.v[e];
      if (!k->used[v] || inner_def(d, v)) continue;
      k->used[v] = 0;
      Type *t = val_type(R->f, v);
      Node *al = node_new(R->a, IR_ALLOC, k->x->fwd->loc);
      al->u.alloc.n = k->x->T;
      al->u.alloc.tape = true;
      al->out = fn_val(R->f, ty_ptr(R->a, t, false),
                       arena_printf(R->a, "%s_kept", R->f->vals[v].hint ? R->f->vals[v].hint : "t"));
      block_insert(R->a, k->x->host, k->pos++, al);
      b_write(&fw, al->out, k->x->fs, v);
      k->to[v] = b_read(&k->rd, al->out, k->s);
      tape_free(R, al->out, k->x->T);
    }
  }
}

// After store-all loop x's reverse loop rv is built: the values of the forward body that its
// body uses, each on a tape of one element per iteration (keep_block), read back at the
// start of rv's body (at statement `at`, iteration s); constants made again.  The tapes are
// allocated before the forward loop and freed at the builder's point.
static void keep_crossing(Rev *R, const LoopAux *x, Node *rv, int at, Val s) {
  int nv = R->f->nvals;
  unsigned char *def = SCRATCH(unsigned char, nv), *used = SCRATCH(unsigned char, nv);
  Block *fb = x->fwd->u.loop.body;
  mark_defs(fb, def);
  Crossing c = {def, used};
  ir_walk(rv->u.loop.body, &(Walker){.pre = crossing_node, .block = crossing_yields, .ctx = &c});
  Block reads = {0};
  Keep k = {R, x, used, SCRATCH(Val, nv), {R->f, &reads, rv->loc}, 0, s};
  while (x->host->stmts[k.pos] != x->fwd) k.pos++;
  keep_block(&k, fb);
  for (int v = 1; v < nv; v++) IR_ASSERT(!used[v]); // (no value of a loop nested in the body)
  ir_walk(rv->u.loop.body, &(Walker){.pre = rename_node, .block = rename_yields, .ctx = k.to});
  Block *rb = rv->u.loop.body;
  for (int i = reads.n - 1; i >= 0; i--) block_insert(R->a, rb, at, reads.stmts[i]);
}

// The forward run of host-level loop n: each iteration first saves its state.
// For s in [0, T): the section of moving region g that iteration s overwrote (at itape[s]),
// copied to the post tape (out), or back from it.
void moving_copies(Rev *R, const Region *g, Val T, bool out) {
  Builder *b = &R->b;
  Node *m = node_new(R->a, IR_LOOP, b->loc);
  m->u.loop.lo = b_const_i(b, &ty_long, 0);
  m->u.loop.hi = T;
  m->u.loop.idx = fn_val(R->f, &ty_long, "s");
  m->u.loop.init = ARENA_ARRAY(R->a, Val, 1);
  m->u.loop.params = ARENA_ARRAY(R->a, Val, 1);
  m->u.loop.outs = ARENA_ARRAY(R->a, Val, 1);
  Block *outer = b->blk;
  m->u.loop.body = b->blk = block_new(R->a);
  Val at = b_read(b, g->itape, m->u.loop.idx);
  Val off = b_binop(b, BIN_MUL, m->u.loop.idx, g->vn);
  if (out)
    copy_elems(R, g->post, off, P(g->arr), at, g->vn);
  else
    copy_elems(R, P(g->arr), at, g->post, off, g->vn);
  b->blk = outer;
  b_push(b, m);
}

// The first element of moving region g in the iteration whose index (vjp) is t.
static Val moving_first(Rev *R, const Node *n, const Region *g, Val t) {
  Builder *b = &R->b;
  unsigned char *inside = SCRATCH(unsigned char, R->pf->nvals);
  loop_inside(n, inside);
  Val *memo = SCRATCH(Val, R->pf->nvals);
  memo[n->u.loop.idx] = t;
  if (g->psub) {
    Val x = materialize(R, g->psub_at, inside, memo, n->loc);
    memo[g->psub] = g->psub_last ? b_binop(b, BIN_SUB, x, b_const_i(b, val_type(R->f, x), 1)) : x;
  }
  Val first = b_cast(b, &ty_long, materialize(R, g->pf, inside, memo, n->loc));
  return g->shift ? b_binop(b, BIN_ADD, first, g->shift) : first;
}

void fwd_seq_loop(Rev *R, const Node *n, bool top) {
  Builder *b = &R->b;
  int nv = R->pf->nvals, nc = n->u.loop.ncarry;
  LoopAux *x = SCRATCH(LoopAux, 1);
  x->loop = n;
  x->next = R->laux;
  R->laux = x;
  x->reg = SCRATCH(Region, MAX_REGIONS);
  x->nreg = regions_of(R, n, x->reg);
  mark_once(R, n, x->reg, x->nreg);
  x->lo = b_cast(b, &ty_long, P(n->u.loop.lo));
  Val T = b_binop(b, BIN_SUB, b_cast(b, &ty_long, P(n->u.loop.hi)), x->lo);
  x->T = b_select(b, b_binop(b, BIN_GT, T, b_const_i(b, &ty_long, 0)), T, b_const_i(b, &ty_long, 0));
  x->all = keeps_all(R, n, top);
  x->post = x->all ? SCRATCH(Val, x->nreg + 1) : NULL;
  for (int r = 0; r < x->nreg; r++) {
    Region *g = &x->reg[r];
    g->tape = tape_alloc(R, R->pf->vals[g->arr].type->elem,
                         g->once ? g->vn : b_binop(b, BIN_MUL, x->T, g->vn), R->pf->vals[g->arr].hint);
    if (g->once) copy_elems(R, g->tape, 0, P(g->arr), g->vlo, g->vn);
    if (g->moving && !g->at_idx) // (not a checkpoint: the outputs' places, for the end)
      g->itape = scan_alloc(b, &ty_long, x->T, arena_printf(R->a, "%s_at", R->pf->vals[g->arr].hint));
    if (x->all) // (the state each iteration leaves, which its reverse starts from)
      x->post[r] = tape_alloc(R, R->pf->vals[g->arr].type->elem, b_binop(b, BIN_MUL, x->T, g->vn),
                              arena_printf(R->a, "%s_after", R->pf->vals[g->arr].hint));
  }
  int *uses = SCRATCH(int, nv);
  count_block(n->u.loop.body, uses);
  x->stape = SCRATCH(Val, nc + 1);
  int sign;
  for (int k = 0; k < nc; k++)
    if (uses[n->u.loop.params[k]] && !running_sum(R, n, k, uses) && !induction_step(R, n, k, &sign))
      x->stape[k] = tape_alloc(R, R->pf->vals[n->u.loop.params[k]].type, x->T,
                               R->pf->vals[n->u.loop.params[k]].hint);
  Node *m = node_new(R->a, IR_LOOP, n->loc);
  m->u.loop.lo = P(n->u.loop.lo);
  m->u.loop.hi = P(n->u.loop.hi);
  m->u.loop.ncarry = nc;
  m->u.loop.init = ARENA_ARRAY(R->a, Val, nc + 1);
  m->u.loop.params = ARENA_ARRAY(R->a, Val, nc + 1);
  m->u.loop.outs = ARENA_ARRAY(R->a, Val, nc + 1);
  for (int k = 0; k < nc; k++) {
    m->u.loop.init[k] = P(n->u.loop.init[k]);
    m->u.loop.params[k] = clone_val(R->f, R->pf, n->u.loop.params[k], R->pv);
  }
  m->u.loop.idx = clone_val(R->f, R->pf, n->u.loop.idx, R->pv);
  m->u.loop.note = checkpoint_note(R, n, x);
  diag_remark(n->loc, "sequential loop: %s", m->u.loop.note);
  Block *outer = b->blk;
  m->u.loop.body = b->blk = block_new(R->a);
  Val s = b_binop(b, BIN_SUB, b_cast(b, &ty_long, m->u.loop.idx), x->lo);
  Val *vlos = SCRATCH(Val, x->nreg + 1);
  for (int r = 0; r < x->nreg; r++) {
    Region *g = &x->reg[r];
    Val vlo = g->vlo;
    if (g->at_idx) {
      vlo = b_cast(b, &ty_long, m->u.loop.idx);
    } else if (g->moving) { // this iteration's section: where it starts, then its elements
      vlo = moving_first(R, n, g, m->u.loop.idx);
      b_write(b, g->itape, s, vlo);
    }
    vlos[r] = vlo;
    if (!g->once) copy_elems(R, g->tape, b_binop(b, BIN_MUL, s, g->vn), P(g->arr), vlo, g->vn);
  }
  for (int k = 0; k < nc; k++)
    if (x->stape[k]) b_write(b, x->stape[k], s, m->u.loop.params[k]);
  if (x->all) { // the forward sweep of the body, and the state it leaves
    R->sweep_all = true;
    x->sw = R->sweep_begin(R, n->u.loop.body);
    for (int r = 0; r < x->nreg; r++)
      copy_elems(R, x->post[r], b_binop(b, BIN_MUL, s, x->reg[r].vn), P(x->reg[r].arr), vlos[r],
                 x->reg[r].vn);
    x->pv = SCRATCH(Val, nv);
    memcpy(x->pv, R->pv, sizeof(Val) * (size_t)nv);
    x->fs = s;
    x->fwd = m;
    x->host = outer;
  } else if (R->par) // (in a parallel loop's reverse: only the iteration's arrays are written)
    clone_block_keep(b, R->pf, n->u.loop.body, R->pv, R->in_par);
  else
    clone_block(b, R->pf, n->u.loop.body, R->pv, false);
  for (int k = 0; k < nc; k++) block_yield(R->a, m->u.loop.body, P(n->u.loop.body->yields[k]));
  b->blk = outer;
  for (int k = 0; k < nc; k++) m->u.loop.outs[k] = clone_val(R->f, R->pf, n->u.loop.outs[k], R->pv);
  b_push(b, m);
  for (int r = 0; top && r < x->nreg; r++) { // the outputs in moving sections, kept for the end
    Region *g = &x->reg[r];
    if (!g->moving) continue;
    IR_ASSERT(!g->at_idx);
    g->post = scan_alloc(b, R->pf->vals[g->arr].type->elem, b_binop(b, BIN_MUL, x->T, g->vn),
                         arena_printf(R->a, "%s_final", R->pf->vals[g->arr].hint));
    moving_copies(R, g, x->T, true);
  }
}

// Inside a parallel loop: the carried values (other than running sums) at the start of
// iteration t, recomputed from the loop's start; running sums' values are never read.
static void recompute_carried(Rev *R, const Node *n, Val t, const int *uses) {
  Builder *b = &R->b;
  int nc = n->u.loop.ncarry, nr = 0, sign;
  int *slot = SCRATCH(int, nc + 1);
  // inductions from their closed form, unless other values are recomputed (the loop that
  // does so carries them too)
  bool closed = true;
  for (int k = 0; k < nc; k++)
    closed &= running_sum(R, n, k, uses) || induction_step(R, n, k, &sign);
  for (int k = 0; k < nc; k++) {
    Val p = n->u.loop.params[k], at;
    if (running_sum(R, n, k, uses)) {
      slot[k] = -1;
      R->pv[p] = ty_is_float(R->pf->vals[p].type) ? b_const_f(b, R->pf->vals[p].type, 0)
                                                   : b_const_i(b, R->pf->vals[p].type, 0);
    } else if (closed && (at = induction_at(R, n, k, t))) {
      slot[k] = -1;
      R->pv[p] = at;
    } else {
      slot[k] = nr++;
    }
  }
  if (!nr) return;
  Node *r = node_new(R->a, IR_LOOP, n->loc);
  r->u.loop.lo = P(n->u.loop.lo);
  r->u.loop.hi = t;
  r->u.loop.ncarry = nr;
  r->u.loop.init = ARENA_ARRAY(R->a, Val, nr);
  r->u.loop.params = ARENA_ARRAY(R->a, Val, nr);
  r->u.loop.outs = ARENA_ARRAY(R->a, Val, nr);
  for (int k = 0; k < nc; k++)
    if (slot[k] >= 0) {
      r->u.loop.init[slot[k]] = P(n->u.loop.init[k]);
      r->u.loop.params[slot[k]] = clone_val(R->f, R->pf, n->u.loop.params[k], R->pv);
    }
  r->u.loop.idx = clone_val(R->f, R->pf, n->u.loop.idx, R->pv);
  Block *outer = b->blk;
  r->u.loop.body = b->blk = block_new(R->a);
  clone_block(b, R->pf, n->u.loop.body, R->pv, true);
  for (int k = 0; k < nc; k++)
    if (slot[k] >= 0) block_yield(R->a, r->u.loop.body, P(n->u.loop.body->yields[k]));
  b->blk = outer;
  for (int k = 0; k < nc; k++)
    if (slot[k] >= 0) R->pv[n->u.loop.params[k]] = r->u.loop.outs[slot[k]] = fn_val(R->f, R->pf->vals[n->u.loop.params[k]].type, NULL);
  b_push(b, r);
}

// A read of an array that b writes, other than the iteration arrays whose values are stale
// (R->dead).
typedef struct {
  const Rev *R;
  const Block *b;
} InPlace;

static WalkNext live_read_of_written(Node *s, void *ctx) {
  const InPlace *p = ctx;
  if (s->kind != IR_READ || !ir_writes(p->b, s->u.mem.arr)) return WALK_INTO;
  for (int k = 0; k < p->R->ndead; k++)
    if (p->R->dead[k] == s->u.mem.arr) return WALK_INTO;
  return WALK_STOP;
}

static bool updates_in_place(const Rev *R, const Block *b) {
  return ir_walk(b, &(Walker){.pre = live_read_of_written, .ctx = &(InPlace){R, b}});
}

// The carried values of loop n at the start of iteration t (the s-th from its start): from
// their tapes, computed for inductions, else 0 (running sums: never read); its index, t.
static void carried_at(Rev *R, const Node *n, const LoopAux *x, Val t, Val s) {
  Builder *b = &R->b;
  for (int k = 0; k < n->u.loop.ncarry; k++) {
    Val p = n->u.loop.params[k];
    Type *ty = R->pf->vals[p].type;
    Val at = x->stape[k] ? 0 : induction_at(R, n, k, t);
    R->pv[p] = x->stape[k] ? b_read(b, x->stape[k], s)
               : at        ? at
               : ty_is_float(ty) ? b_const_f(b, ty, 0) : b_const_i(b, ty, 0);
  }
  R->pv[n->u.loop.idx] = t;
}

void rev_seq_loop(Rev *R, const Node *n) {
  LoopAux *x = loop_aux(R, n);
  Val arrs[MAX_REGIONS];
  int nw = 0;
  written_arrays(n->u.loop.body, arrs, &nw);
  if (!x && !R->par && nw) // (without writes it is reversed as in a parallel loop's body)
    diag_error(n->loc, "move the loop out of the if, to the function's level",
               "reverse mode of a sequential loop that writes arrays inside an if at the "
               "function's level is not supported");
  if (!x && updates_in_place(R, n->u.loop.body)) // its iterations are re-run without writes
    diag_error(n->loc, "carry the value in a local variable through the loop and write the "
               "element once after it (double v = y[i]; for (...) v = ...; y[i] = v;)",
               "reverse mode of a sequential loop inside a parallel loop that reads an array "
               "element it writes is not supported");
  Builder *b = &R->b;
  int nv = R->pf->nvals, nc = n->u.loop.ncarry;
  const Block *body = n->u.loop.body;
  int *uses = SCRATCH(int, nv);
  count_block(body, uses);
  unsigned char *inside = SCRATCH(unsigned char, nv);
  loop_inside(n, inside);
  // the adjoints the reverse loop carries: of the carried values, then of free scalars
  Val *of = SCRATCH(Val, nc + nv);
  int *kk = SCRATCH(int, nc + nv), na = 0, npa;
  for (int k = 0; k < nc; k++)
    if (R->varied[n->u.loop.params[k]]) kk[na] = k, of[na++] = n->u.loop.params[k];
  npa = na;
  for (int v = 1; v < nv; v++)
    if (uses[v] && !inside[v] && R->varied[v] && ty_is_float(R->pf->vals[v].type)) kk[na] = -1, of[na++] = v;
  Val lo = x ? x->lo : b_cast(b, &ty_long, P(n->u.loop.lo)), T = x ? x->T : 0;
  if (!x) {
    Val d = b_binop(b, BIN_SUB, b_cast(b, &ty_long, P(n->u.loop.hi)), lo);
    T = b_select(b, b_binop(b, BIN_GT, d, b_const_i(b, &ty_long, 0)), d, b_const_i(b, &ty_long, 0));
  }
  Node *m = node_new(R->a, IR_LOOP, n->loc);
  m->u.loop.lo = b_const_i(b, &ty_long, 0);
  m->u.loop.hi = T;
  m->u.loop.idx = fn_val(R->f, &ty_long, "rev");
  m->u.loop.ncarry = na;
  m->u.loop.init = ARENA_ARRAY(R->a, Val, na + 1);
  m->u.loop.params = ARENA_ARRAY(R->a, Val, na + 1);
  m->u.loop.outs = ARENA_ARRAY(R->a, Val, na + 1);
  for (int a = 0; a < na; a++) {
    Type *t = R->pf->vals[of[a]].type;
    Val g = a < npa ? R->adj[n->u.loop.outs[kk[a]]] : R->adj[of[a]];
    m->u.loop.init[a] = g ? g : zero_of(R, t);
    m->u.loop.params[a] = fn_val(R->f, t, NULL);
    m->u.loop.outs[a] = fn_val(R->f, t, NULL);
  }
  Block *outer = b->blk;
  m->u.loop.body = b->blk = block_new(R->a);
  Val s = b_binop(b, BIN_SUB, b_binop(b, BIN_SUB, T, b_const_i(b, &ty_long, 1)), m->u.loop.idx);
  Val t = b_cast(b, R->pf->vals[n->u.loop.idx].type, b_add(b, lo, s));
  Val *outer_adj = R->adj;
  R->adj = SCRATCH(Val, nv);
  Val *moved_at = x ? SCRATCH(Val, x->nreg + 1) : NULL;
  int kept_at = b->blk->n; // (store-all: where the kept values are read back)
  if (x && x->all) { // the state iteration t left, and the values its forward sweep computed
    for (int r = 0; r < x->nreg; r++) {
      Region *g = &x->reg[r];
      IR_ASSERT(!g->at_idx);
      Val vlo = g->moving ? (moved_at[r] = b_read(b, g->itape, s)) : g->vlo;
      copy_elems(R, P(g->arr), vlo, x->post[r], b_binop(b, BIN_MUL, s, g->vn), g->vn);
    }
    for (int v = 1; v < nv; v++)
      if (inside[v]) R->pv[v] = x->pv[v];
    carried_at(R, n, x, t, s);
    for (int a = npa; a < na; a++) R->adj[of[a]] = m->u.loop.params[a];
    for (int a = 0; a < npa; a++) adj_add(R, body->yields[kk[a]], m->u.loop.params[a]);
    R->seq_depth++;
    R->sweep_end(R, body, x->sw);
    R->seq_depth--;
    for (int r = 0; r < x->nreg; r++)
      if (x->reg[r].moving)
        copy_elems(R, P(x->reg[r].arr), moved_at[r], x->reg[r].tape,
                   b_binop(b, BIN_MUL, s, x->reg[r].vn), x->reg[r].vn);
  } else if (x) { // restore iteration t's state
    for (int r = 0; r < x->nreg; r++) {
      Region *g = &x->reg[r];
      Val vlo = g->at_idx   ? (moved_at[r] = b_cast(b, &ty_long, t))
                : g->moving ? (moved_at[r] = b_read(b, g->itape, s))
                            : g->vlo;
      if (!g->once) copy_elems(R, P(g->arr), vlo, g->tape, b_binop(b, BIN_MUL, s, g->vn), g->vn);
    }
    carried_at(R, n, x, t, s);
    for (int a = npa; a < na; a++) R->adj[of[a]] = m->u.loop.params[a];
    for (int a = 0; a < npa; a++) adj_add(R, body->yields[kk[a]], m->u.loop.params[a]);
    // In a parallel loop's reverse, an iteration array none of whose values the reverse uses
    // (and that nothing reads after it) is not written again: the iterations run again
    // without those writes (clone_block_keep keeps R->in_par's).
    Val *outer_dead = R->dead;
    int outer_ndead = R->ndead;
    if (R->par) {
      R->dead = SCRATCH(Val, R->ndead + nw + 1);
      if (outer_ndead) memcpy(R->dead, outer_dead, sizeof(Val) * (size_t)outer_ndead);
      for (int k = 0; k < nw; k++)
        if (R->in_par[arrs[k]] && !adjoint_reads(R, n, arrs[k]) && !restored_after(R, n, arrs[k]))
          R->in_par[R->dead[R->ndead++] = arrs[k]] = 0;
    }
    R->seq_depth++; // (an element every iteration reads: no sum that would leave the loop)
    R->sweep(R, body, false);
    R->seq_depth--;
    for (int k = outer_ndead; k < R->ndead; k++) R->in_par[R->dead[k]] = 1;
    R->dead = outer_dead, R->ndead = outer_ndead;
    // a moving section back as it was before iteration t (the re-run wrote it again): after
    // the last one, the arrays are as before the loop
    for (int r = 0; r < x->nreg; r++)
      if (x->reg[r].moving)
        copy_elems(R, P(x->reg[r].arr), moved_at[r], x->reg[r].tape,
                   b_binop(b, BIN_MUL, s, x->reg[r].vn), x->reg[r].vn);
  } else {
    recompute_carried(R, n, t, uses);
    R->pv[n->u.loop.idx] = t;
    clone_block(b, R->pf, body, R->pv, true); // iteration t again, no writes
    for (int a = npa; a < na; a++) R->adj[of[a]] = m->u.loop.params[a];
    for (int a = 0; a < npa; a++) adj_add(R, body->yields[kk[a]], m->u.loop.params[a]);
    R->seq_depth++;
    R->block(R, body);
    R->seq_depth--;
  }
  for (int a = 0; a < na; a++)
    block_yield(R->a, m->u.loop.body, R->adj[of[a]] ? R->adj[of[a]] : zero_of(R, R->pf->vals[of[a]].type));
  R->adj = outer_adj;
  b->blk = outer;
  b_push(b, m);
  if (x) { // the state before the loop (the first one saved), then the tapes go
    Val any = b_binop(b, BIN_GT, T, b_const_i(b, &ty_long, 0));
    for (int r = 0; r < x->nreg; r++) {
      if (x->reg[r].moving) continue; // (restored iteration by iteration)
      Val cnt = b_select(b, any, x->reg[r].vn, b_const_i(b, &ty_long, 0));
      copy_elems(R, P(x->reg[r].arr), x->reg[r].vlo, x->reg[r].tape, b_const_i(b, &ty_long, 0), cnt);
    }
    for (int r = 0; r < x->nreg; r++) {
      tape_free(R, x->reg[r].tape, x->reg[r].once ? x->reg[r].vn : b_binop(b, BIN_MUL, T, x->reg[r].vn));
      if (x->reg[r].moving && !x->reg[r].at_idx && !x->reg[r].post) scan_free(b, x->reg[r].itape);
    }
    for (int k = 0; k < nc; k++)
      if (x->stape[k]) tape_free(R, x->stape[k], T);
    for (int r = 0; x->all && r < x->nreg; r++) tape_free(R, x->post[r], b_binop(b, BIN_MUL, T, x->reg[r].vn));
    if (x->all) keep_crossing(R, x, m, kept_at, s);
  }
  for (int a = npa; a < na; a++) R->adj[of[a]] = m->u.loop.outs[a];
  for (int a = 0; a < npa; a++) adj_add(R, n->u.loop.init[kk[a]], m->u.loop.outs[a]);
}
