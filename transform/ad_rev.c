// transform/ad_rev.c: reverse mode.  f -> f_vjp (language.md §2.1).
//
// Strategy (papers/nested-parallel-ad.md §3-4: redundant execution, accumulators):
//   forward sweep   the primal, cloned; before a statement that overwrites array elements
//                   that an earlier (or the same) parallel loop reads, those elements are saved
//   reverse sweep   the top-level statements in reverse order; for a parallel loop P, one
//                   reverse parallel loop that re-executes P's body (no writes) and then runs
//                   the body's adjoint code.  Adjoints of values defined outside P (free
//                   scalars, loop-invariant array elements) are summed by reductions of the
//                   reverse loop; adjoints of array elements read at the loop index are plain
//                   updates, at other indices atomic updates (a scatter-add).
//   epilogue        saved elements swapped back, so outputs hold what f writes;
//                   *p_bar += adjoint of each active scalar parameter.
#include <stdlib.h>
#include <string.h>

#include "transform.h"
#include "../analysis/analysis.h"

typedef struct {
  Val arr, lo, hi; // primal values: the elements [lo, hi) of arr are overwritten
  Val save;        // vjp value of the saved copy
  Val vlo, vn;     // vjp values of lo and of the count
} Save;

// What the reverse of hist(*/min/max/declared) needs per clause (vjp values): the section
// before and after the loop, and what the passes over its updates found.
typedef struct HistAux {
  const Node *par;   // the primal loop
  Val *h0, *h1;      // per clause (0: hist(+) or not varied)
  Val *win, *nz, *pr;
  Val *D, *DI;       // the general rule: d(final)/d(update), d(final)/d(initial contents)
  struct HistAux *next;
} HistAux;

// A block of elements that a sequential loop's iterations overwrite, and its checkpoints.
typedef struct {
  Val arr;          // primal array
  Val plo, phi;     // primal bounds [plo, phi) (phi 0: the element plo; hist: 0, 0)
  Val vlo, vn;      // vjp values (long): the elements [vlo, vlo + vn)
  Val tape;         // vjp: vn elements per iteration (once: vn elements)
  bool once;        // overwritten before it is read in every iteration: only the state
                    // before the loop is saved (for after the loop's reverse)
  bool guarded;     // written under an if: vn is 0 where the condition is false
} Region;

#define MAX_REGIONS 64 // array sections one sequential loop may overwrite

// What the forward run of a sequential loop at host level saved, for its reverse.
typedef struct LoopAux {
  const Node *loop;
  Region *reg;
  int nreg;
  Val *stape; // per carried value: its value at the start of each iteration (0: not saved)
  Val lo, T;  // vjp (long): the first index, the number of iterations
  struct LoopAux *next;
} LoopAux;

typedef struct {
  Arena *a;
  const Fn *pf; // primal
  Fn *f;        // vjp
  Builder b;
  Val *pv;   // primal value -> its value in f (forward sweep or re-execution)
  Val *adj;  // primal scalar -> its current adjoint in f (0: zero)
  Val *abar; // primal array -> its adjoint array in f (0: inactive)
  unsigned char *varied;
  Node **def; // primal value -> defining node
  // inside the reverse of a parallel loop
  const Node *par;
  unsigned char *in_par; // primal values defined in par's body
  Val *hoisted;          // primal value -> host copy of a loop-invariant index
  Val *mul_nz, *mul_p;   // reduce(*) result -> its zero count and nonzero product (lift_mul)
  Val *winner;           // reduce(min/max) result -> the index of its winner, -1: the initial value
  struct Shared *shared; // the top-level reverse loop's per-thread adjoints (acc_shared)
  int nshared;
  Block *top_host;       // the block the top-level reverse loop goes into
  const Node *top_par;   // the primal loop it reverses
  unsigned char *top_in; // values defined in that loop's body
  const Node **loop_of;  // index of a loop nested in it -> that loop
  struct Offsets *offs;  // the reverse loop's stencil-read arrays (see plan_offsets)
  int noffs;
  int depth;             // parallel loops being reversed (> 1: nested)
  int seq_depth;         // sequential loops being reversed inside the parallel one
  bool general;          // --general-rule: scan(+) by the general rule too (a cross-check)
  HistAux *haux;         // per top-level statement with such hists: its clauses' aux arrays
  LoopAux *laux;         // per sequential loop run with checkpoints: where they are
} Rev;

#define P(v) (R->pv[v])

// ---- helpers ----

static void note_defs(Rev *R, const Block *b, unsigned char *mark);

static void note_def(Rev *R, Node *n, unsigned char *mark) {
  if (n->out) {
    R->def[n->out] = n;
    if (mark) mark[n->out] = 1;
  }
  switch (n->kind) {
  case IR_IF:
    note_defs(R, n->u.ifs.then, mark);
    note_defs(R, n->u.ifs.els, mark);
    for (int i = 0; i < n->u.ifs.nouts; i++) {
      R->def[n->u.ifs.outs[i]] = n;
      if (mark) mark[n->u.ifs.outs[i]] = 1;
    }
    break;
  case IR_PAR:
    if (mark) mark[n->u.par.idx] = 1;
    note_defs(R, n->u.par.body, mark);
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
    note_defs(R, n->u.loop.body, mark);
    break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
  case IR_RETURN: break;
  }
}

static void note_defs(Rev *R, const Block *b, unsigned char *mark) {
  for (int i = 0; i < b->n; i++) note_def(R, b->stmts[i], mark);
}

// adj[v] += x (x is a value of f, or 0)
static void adj_add(Rev *R, Val v, Val x) {
  if (!x || !v || !R->varied[v]) return;
  Type *t = R->pf->vals[v].type;
  if (val_type(R->f, x) != t) x = b_cast(&R->b, t, x);
  R->adj[v] = b_add(&R->b, R->adj[v], x);
}

static Val zero_of(Rev *R, Type *t) {
  return ty_is_float(t) ? b_const_f(&R->b, t, 0) : b_const_i(&R->b, t, 0);
}

// ---- array accesses inside a parallel loop ----

// The walks of an index expression's definitions below (is_invariant, index_clonable,
// index_interval) visit at most WALK_BUDGET statements: a longer expression (or one whose
// shared parts add up to more, a DAG walked as a tree: exponential) gets the answer that
// costs speed, not correctness: not invariant, not clonable, no interval (an atomic update).
// hoist and index_at follow only what such a walk accepted.
#define WALK_BUDGET 10000

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
           (!d->u.call.b || invariant_within(R, d->u.call.b, budget));
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP:
  case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_RETURN: return false;
  }
  UNREACHABLE();
}

static bool is_invariant(Rev *R, Val v) {
  int budget = WALK_BUDGET;
  return invariant_within(R, v, &budget);
}

// The host-level copy of a loop-invariant value (recomputed after the reverse loop).
static Val hoist(Rev *R, Val v) {
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
    break;
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP:
  case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_RETURN: UNREACHABLE();
  }
  n->out = clone_val(R->f, R->pf, v, R->hoisted);
  b_push(&R->b, n);
  return n->out;
}

// Do the reads of arr in the loop body, other than loop-invariant ones, all use one index
// expression a*i + b with a != 0?  Then the adjoint updates of different iterations touch
// different elements, and need no atomics.
static bool reads_injective(Rev *R, const Block *b, Val arr, Val *first) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_READ && n->u.mem.arr == arr && !is_invariant(R, n->u.mem.idx)) {
      if (!*first) {
        IndexForm f = index_form(R->def, R->in_par, n->u.mem.idx, R->par->u.par.idx);
        bool user = false; // injective(arr) on the pragma, and read where it is written
        for (int k = 0; k < R->par->u.par.ninjective; k++) user |= R->par->u.par.injective[k] == arr;
        if ((!f.affine || !f.coef) && !user) return false;
        *first = n->u.mem.idx;
      } else if (!index_same(R->def, *first, n->u.mem.idx)) {
        return false;
      }
    }
    if (n->kind == IR_IF && (!reads_injective(R, n->u.ifs.then, arr, first) ||
                             !reads_injective(R, n->u.ifs.els, arr, first)))
      return false;
    if ((n->kind == IR_LOOP && !reads_injective(R, n->u.loop.body, arr, first)) ||
        (n->kind == IR_PAR && !reads_injective(R, n->u.par.body, arr, first)))
      return false; // the reads of nested loops update the same adjoint
  }
  return true;
}

// A read-only array that a parallel loop reads at several index expressions a*i + c_k (one
// a, the c_k differing: a stencil's u[i-1], u[i], u[i+1]).  Its adjoint updates from
// different iterations would collide (atomics); instead the reverse loop adds those of the
// first expression directly and stores the others' per iteration (tmp[k][i - lo], each its
// own element), and one loop per other expression adds them afterwards: no atomics.
#define MAX_OFFSETS 8
typedef struct Offsets {
  Val arr;                // primal array
  int n;
  Val idx[MAX_OFFSETS];   // primal: one index expression per class (index_same)
  Val tmp[MAX_OFFSETS];   // vjp: per-iteration adjoints of class k >= 1
} Offsets;

// Adjoints of an array that every iteration of the top-level loop may update at the same
// elements (a parameter read in nested loops at indices the loop index does not decide:
// GMM's means[k*D + d]).  Instead of atomics on the array, the reverse loop gets a hist(+)
// clause over the elements those indices can reach, an interval computed before the loop
// from the nested loops' bounds: the C target gives each thread its own copy of a small
// one (emit_par.c), CUDA updates it with atomicAdd as before.
typedef struct Shared {
  Val arr;    // primal array
  Val lo, hi; // vjp (long): the least and the greatest index the updates can reach
} Shared;

#define MAX_SHARED 16

// The least and greatest value of primal index expression v over the iterations of the
// top-level loop (its index excluded), as long values computed in the block before it.
static bool index_interval(Rev *R, Val v, Val *lo, Val *hi, int *budget) {
  Builder hb = {R->f, R->top_host, R->b.loc};
  if (v == R->top_par->u.par.idx || --*budget < 0) return false;
  if (!R->top_in[v]) {
    if (!ty_is_int(R->pf->vals[v].type)) return false;
    *lo = *hi = b_cast(&hb, &ty_long, P(v));
    return true;
  }
  const Node *lp = R->loop_of[v];
  if (lp) { // a nested loop's index: [lo, hi - 1]
    Val a, b, c, d;
    Val llo = lp->kind == IR_LOOP ? lp->u.loop.lo : lp->u.par.lo;
    Val lhi = lp->kind == IR_LOOP ? lp->u.loop.hi : lp->u.par.hi;
    if (!index_interval(R, llo, &a, &b, budget) || !index_interval(R, lhi, &c, &d, budget))
      return false;
    *lo = a;
    *hi = b_binop(&hb, BIN_SUB, d, b_const_i(&hb, &ty_long, 1));
    return true;
  }
  const Node *d = R->def[v];
  if (!d || !ty_is_int(R->pf->vals[v].type)) return false;
  Val a, b, c, e;
  switch (d->kind) {
  case IR_CONST: *lo = *hi = b_const_i(&hb, &ty_long, d->u.cst.i); return true;
  case IR_CAST: { // only casts that keep every value (to a signed 64-bit type, or same type)
    const Type *to = R->pf->vals[v].type, *from = R->pf->vals[d->u.cast.a].type;
    bool keeps = to == from || ((!strcmp(to->name, "long") || !strcmp(to->name, "long long")) &&
                                (!strcmp(from->name, "int") || !strcmp(from->name, "long") ||
                                 !strcmp(from->name, "long long") || !strcmp(from->name, "short")));
    return keeps && index_interval(R, d->u.cast.a, lo, hi, budget);
  }
  case IR_BINOP:
    if (d->u.bin.op != BIN_ADD && d->u.bin.op != BIN_SUB && d->u.bin.op != BIN_MUL) return false;
    if (!index_interval(R, d->u.bin.a, &a, &b, budget) ||
        !index_interval(R, d->u.bin.b, &c, &e, budget))
      return false;
    if (d->u.bin.op == BIN_ADD) {
      *lo = b_add(&hb, a, c), *hi = b_add(&hb, b, e);
    } else if (d->u.bin.op == BIN_SUB) {
      *lo = b_sub(&hb, a, e), *hi = b_sub(&hb, b, c);
    } else { // the least and the greatest of the four corner products
      Val p[4] = {b_mul(&hb, a, c), b_mul(&hb, a, e), b_mul(&hb, b, c), b_mul(&hb, b, e)};
      *lo = *hi = p[0];
      for (int k = 1; k < 4; k++) {
        *lo = b_select(&hb, b_binop(&hb, BIN_LT, p[k], *lo), p[k], *lo);
        *hi = b_select(&hb, b_binop(&hb, BIN_GT, p[k], *hi), p[k], *hi);
      }
    }
    return true;
  default: return false;
  }
}

// abar[idx] += g from inside the top-level reverse loop, as an update of a hist(+) clause
// of that loop where the elements idx reaches can be bounded; false: use an atomic.
static bool acc_shared(Rev *R, Val arr, Val idx, Val g) {
  if (!R->shared || !ty_is_float(R->pf->vals[arr].type->elem)) return false;
  int s = 0;
  while (s < R->nshared && R->shared[s].arr != arr) s++;
  if (s == R->nshared && s == MAX_SHARED) return false;
  Val lo, hi;
  int budget = 1000; // statements of idx and of the loop bounds it depends on
  if (!index_interval(R, idx, &lo, &hi, &budget)) return false;
  Builder hb = {R->f, R->top_host, R->b.loc};
  if (s == R->nshared) {
    R->shared[R->nshared++] = (Shared){arr, lo, hi};
  } else { // the union with the earlier updates' interval
    Shared *x = &R->shared[s];
    x->lo = b_select(&hb, b_binop(&hb, BIN_LT, lo, x->lo), lo, x->lo);
    x->hi = b_select(&hb, b_binop(&hb, BIN_GT, hi, x->hi), hi, x->hi);
  }
  Node *u = node_new(R->a, IR_UPDATE, R->b.loc);
  u->u.mem.arr = R->abar[arr];
  u->u.mem.idx = P(idx);
  u->u.mem.v = val_type(R->f, g) == R->pf->vals[arr].type->elem ? g : b_cast(&R->b, R->pf->vals[arr].type->elem, g);
  u->u.mem.hist = s;
  b_push(&R->b, u);
  return true;
}

// The hist(+) clauses of the top-level reverse loop m (acc_shared), before it is pushed.
static void finish_shared(Rev *R, Node *m) {
  if (!R->nshared) return;
  Builder hb = {R->f, R->top_host, m->loc};
  m->u.par.hists = ARENA_ARRAY(R->a, Hist, R->nshared);
  for (int s = 0; s < R->nshared; s++) {
    const Shared *x = &R->shared[s];
    Val len = b_add(&hb, b_sub(&hb, x->hi, x->lo), b_const_i(&hb, &ty_long, 1));
    m->u.par.hists[s] = (Hist){.op = RED_ADD, .arr = R->abar[x->arr], .lo = x->lo, .len = len,
                               .var = arena_printf(R->a, "%s_bar", R->pf->vals[x->arr].hint)};
  }
  m->u.par.nhists = R->nshared;
}

static void note_loops(const Block *b, const Node **loop_of) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_IF) note_loops(n->u.ifs.then, loop_of), note_loops(n->u.ifs.els, loop_of);
    if (n->kind == IR_LOOP) loop_of[n->u.loop.idx] = n, note_loops(n->u.loop.body, loop_of);
    if (n->kind == IR_PAR) loop_of[n->u.par.idx] = n, note_loops(n->u.par.body, loop_of);
  }
}

// Pending adjoints of loop-invariant elements: reduced by the reverse loop, added after it.
typedef struct {
  Val arr, idx; // primal
  Val sum;      // per-iteration adjoint in the reverse body
} InvAcc;

static InvAcc *inv_acc;
static int ninv_acc, cap_inv_acc;

static Arena *scratch;
static Arena *if_tmp[256]; // the snapshots of the ifs being reversed (nested)
static int nif_tmp;

Arena *ad_scratch(void) {
  if (!scratch) scratch = arena_new(0);
  return scratch;
}

void ad_release_scratch(void) {
  while (nif_tmp > 0) arena_free(if_tmp[--nif_tmp]);
  arena_free(scratch);
  scratch = NULL;
  inv_acc = NULL;
  ninv_acc = cap_inv_acc = 0;
}

#define SCRATCH(T, n) ARENA_ARRAY(ad_scratch(), T, (n))

// Is every read of arr in b (of the top-level loop being reversed) in row i of a row-major
// matrix, i*M + j with i the top loop's index and j a nested loop's over [0, M)?  Then each
// iteration of the top loop (one thread) updates its own elements of arr's adjoint.
static bool reads_rows(Rev *R, const Block *b, Val arr) {
  const Node *top = R->top_par;
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_READ && n->u.mem.arr == arr &&
        !index_row_major(R->def, R->top_in, top->u.par.body, n->u.mem.idx, top->u.par.idx))
      return false;
    if (n->kind == IR_IF && (!reads_rows(R, n->u.ifs.then, arr) || !reads_rows(R, n->u.ifs.els, arr)))
      return false;
    if ((n->kind == IR_LOOP && !reads_rows(R, n->u.loop.body, arr)) ||
        (n->kind == IR_PAR && !reads_rows(R, n->u.par.body, arr)))
      return false;
  }
  return true;
}

static bool row_of_top(Rev *R, Val arr) {
  return R->shared && // (the top-level reverse loop's context is set)
         !ir_writes(R->top_par->u.par.body, arr) && reads_rows(R, R->top_par->u.par.body, arr);
}

static void rev_read(Rev *R, const Node *n) {
  Val g = R->adj[n->out], abar = R->abar[n->u.mem.arr];
  if (!g || !abar) return;
  if (!R->par) { // host level: one element
    b_acc(&R->b, abar, P(n->u.mem.idx), g, ACC_PLAIN);
    return;
  }
  Val idx = n->u.mem.idx;
  if (row_of_top(R, n->u.mem.arr)) { // a row of the thread's own
    b_acc(&R->b, abar, P(idx), g, ACC_PLAIN);
    return;
  }
  if (R->depth > 1 && !is_invariant(R, idx)) { // iterations of the outer loop run in parallel
    if (!acc_shared(R, n->u.mem.arr, idx, g)) b_acc(&R->b, abar, P(idx), g, ACC_ATOMIC);
    return;
  }
  if (idx != R->par->u.par.idx && is_invariant(R, idx) && R->seq_depth) { // every thread
    if (!acc_shared(R, n->u.mem.arr, idx, g)) // (a per-loop sum would leave the loop's scope)
      b_acc(&R->b, abar, P(idx), g, ACC_ATOMIC);
    return;
  }
  for (int o = 0; o < R->noffs && !is_invariant(R, idx); o++) {
    const Offsets *x = &R->offs[o];
    if (x->arr != n->u.mem.arr) continue;
    int k = 0;
    while (k < x->n && !index_same(R->def, x->idx[k], idx)) k++;
    IR_ASSERT(k < x->n); // (plan_offsets saw every read)
    if (k == 0) {
      b_acc(&R->b, abar, P(idx), g, ACC_PLAIN);
    } else {
      Val i = b_binop(&R->b, BIN_SUB, b_cast(&R->b, &ty_long, P(R->par->u.par.idx)),
                      b_cast(&R->b, &ty_long, P(R->par->u.par.lo)));
      b_acc(&R->b, x->tmp[k], i, g, ACC_PLAIN);
    }
    return;
  }
  if (idx != R->par->u.par.idx && is_invariant(R, idx)) {
    for (int i = 0; i < ninv_acc; i++)
      if (inv_acc[i].arr == n->u.mem.arr && inv_acc[i].idx == idx) {
        inv_acc[i].sum = b_add(&R->b, inv_acc[i].sum, g);
        return;
      }
    if (ninv_acc == cap_inv_acc) {
      cap_inv_acc = cap_inv_acc ? 2 * cap_inv_acc : 8;
      InvAcc *v = SCRATCH(InvAcc, cap_inv_acc);
      if (ninv_acc) memcpy(v, inv_acc, sizeof(InvAcc) * (size_t)ninv_acc);
      inv_acc = v;
    }
    inv_acc[ninv_acc++] = (InvAcc){n->u.mem.arr, idx, g};
    return;
  }
  Val first = 0;
  bool plain = reads_injective(R, R->par->u.par.body, n->u.mem.arr, &first);
  if (plain || !acc_shared(R, n->u.mem.arr, idx, g))
    b_acc(&R->b, abar, P(idx), g, plain ? ACC_PLAIN : ACC_ATOMIC);
}

// y[idx] = v: the seed of the element flows to v; the element's adjoint becomes 0.
static void rev_write(Rev *R, const Node *n) {
  Val abar = R->abar[n->u.mem.arr];
  if (!abar) return;
  Val idx = P(n->u.mem.idx);
  Val seed = b_read(&R->b, abar, idx);
  b_write(&R->b, abar, idx, zero_of(R, val_type(R->f, seed)));
  adj_add(R, n->u.mem.v, seed);
}

// ---- scalar statements ----

static void rev_binop(Rev *R, const Node *n, Val g) {
  Val a = n->u.bin.a, c = n->u.bin.b;
  Builder *b = &R->b;
  switch (n->u.bin.op) {
  case BIN_ADD: adj_add(R, a, g), adj_add(R, c, g); return;
  case BIN_SUB: adj_add(R, a, g), adj_add(R, c, b_neg(b, g)); return;
  case BIN_MUL:
    if (R->varied[a]) adj_add(R, a, b_mul(b, g, P(c)));
    if (R->varied[c]) adj_add(R, c, b_mul(b, g, P(a)));
    return;
  case BIN_DIV: // r = a / c:  da = g / c,  dc = -g * r / c
    if (R->varied[a]) adj_add(R, a, b_binop(b, BIN_DIV, g, P(c)));
    if (R->varied[c]) adj_add(R, c, b_neg(b, b_binop(b, BIN_DIV, b_mul(b, g, P(n->out)), P(c))));
    return;
  default: return; // integer and comparison operators carry no derivative
  }
}

static void rev_block(Rev *R, const Block *b);
static bool block_reads_in_par(const Block *b, Val arr, bool in_par);
static void rev_par(Rev *R, const Node *n);
static void rev_seq_loop(Rev *R, const Node *n);

static Val user_hist_partial(Rev *R, const Hist *h, Val y, Val x, Val g);

static const HistAux *hist_aux(Rev *R, const Node *par) {
  for (const HistAux *x = R->haux; x; x = x->next)
    if (x->par == par) return x;
  return NULL;
}

// An update h[k] OP= v of hist(OP: h[lo:len]) (language.md §3; papers' §2.9-2.12): where
// lo <= k < lo + len, v gets the bin's adjoint times d(bin)/dv: 1 for +; for min/max, all
// of it if this iteration is the bin's winner; for *, the product of the bin's other
// factors (zero count and nonzero product, the initial contents included); for a declared
// operator with an inverse, d(rest OP v)/dv with rest = inv(final, v).  Out of range: 0.
static void rev_update(Rev *R, const Node *n) {
  int hi = n->u.mem.hist;
  const Hist *h = &R->par->u.par.hists[hi];
  Val abar = R->abar[n->u.mem.arr];
  if (!abar || !R->varied[n->u.mem.v]) return;
  Builder *b = &R->b;
  Type *t = R->pf->vals[n->u.mem.v].type;
  Val k = P(n->u.mem.idx), in = hist_bin(b, k, P(h->lo), P(h->len));
  Node *sel = node_new(R->a, IR_IF, n->loc);
  sel->u.ifs.cond = in;
  sel->u.ifs.then = block_new(R->a);
  sel->u.ifs.els = block_new(R->a);
  Block *outer = b->blk;
  b->blk = sel->u.ifs.then;
  Val g = b_read(b, abar, k), j = b_binop(b, BIN_SUB, b_cast(b, &ty_long, k), b_cast(b, &ty_long, P(h->lo)));
  const HistAux *x = hist_aux(R, R->par);
  IR_ASSERT(h->op == RED_ADD || x); // (check_reductions)
  bool general = x && x->D[hi]; // (hist_prepare: no inverse, or --general-rule)
  switch (general ? RED_USER : h->op) {
  case RED_ADD: break;
  case RED_MIN: case RED_MAX: {
    Val key = hist_win_key(b, R->par, hi, n, P(R->par->u.par.idx), P(R->par->u.par.lo));
    Val mine = b_binop(b, BIN_EQ, b_read(b, x->win[hi], j), key);
    g = b_select(b, mine, g, b_const_f(b, t, 0));
    break;
  }
  case RED_MUL:
    g = b_mul(b, g, hist_mul_partial(b, x->h0[hi], x->nz[hi], x->pr[hi], j, P(n->u.mem.v)));
    break;
  case RED_USER:
    if (!general) {
      g = user_hist_partial(R, h, b_read(b, x->h1[hi], j), P(n->u.mem.v), g);
    } else { // the general rule: the partial of this iteration's update
      Val it = b_binop(b, BIN_SUB, b_cast(b, &ty_long, P(R->par->u.par.idx)),
                       b_cast(b, &ty_long, P(R->par->u.par.lo)));
      g = b_mul(b, g, b_read(b, x->D[hi], it));
    }
    break;
  }
  block_yield(R->a, sel->u.ifs.then, g);
  b->blk = sel->u.ifs.els;
  block_yield(R->a, sel->u.ifs.els, b_const_f(b, t, 0));
  b->blk = outer;
  sel->u.ifs.nouts = 1;
  sel->u.ifs.outs = ARENA_ARRAY(R->a, Val, 1);
  sel->u.ifs.outs[0] = fn_val(R->f, t, NULL);
  b_push(b, sel);
  adj_add(R, n->u.mem.v, sel->u.ifs.outs[0]);
}

// One more result of the reversed if m: t from its then side, e from its else side (0: zero).
static Val if_merge(Rev *R, Node *m, Block **blks, Val t, Val e, Type *ty) {
  R->b.blk = blks[0];
  block_yield(R->a, blks[0], t ? t : zero_of(R, ty));
  R->b.blk = blks[1];
  block_yield(R->a, blks[1], e ? e : zero_of(R, ty));
  Val out = fn_val(R->f, ty, NULL);
  m->u.ifs.outs[m->u.ifs.nouts++] = out;
  return out;
}

// Reverse of an if: the same branch is taken; adjoints assigned in a branch merge into outs.
// So do the pending sums of loop-invariant elements (inv_acc): a contribution made in a
// branch counts only where the branch runs (the other side yields the sum as it was).
static void rev_if(Rev *R, const Node *n) {
  int nv = R->pf->nvals;
  size_t sz = sizeof(Val) * (size_t)nv;
  Arena *tmp = arena_new(0); // per if: freed below (or with the scratch on an error)
  if (nif_tmp == 256) diag_error(n->loc, NULL, "ifs nested too deeply");
  if_tmp[nif_tmp++] = tmp;
  Val *snap = arena_alloc(tmp, sz), *after_then = arena_alloc(tmp, sz);
  memcpy(snap, R->adj, sz);
  int ninv0 = ninv_acc, ninv_then = 0;
  Val *inv0 = arena_alloc(tmp, sizeof(Val) * (size_t)(ninv0 + 1)), *inv_then = NULL;
  for (int i = 0; i < ninv0; i++) inv0[i] = inv_acc[i].sum;
  Block *outer = R->b.blk, *blks[2] = {block_new(R->a), block_new(R->a)};
  const Block *src[2] = {n->u.ifs.then, n->u.ifs.els};
  for (int side = 0; side < 2; side++) {
    memcpy(R->adj, snap, sz);
    for (int i = 0; i < ninv_acc; i++) inv_acc[i].sum = i < ninv0 ? inv0[i] : 0;
    R->b.blk = blks[side];
    for (int k = 0; k < n->u.ifs.nouts; k++) adj_add(R, src[side]->yields[k], snap[n->u.ifs.outs[k]]);
    rev_block(R, src[side]);
    if (side == 0) {
      memcpy(after_then, R->adj, sz);
      ninv_then = ninv_acc;
      inv_then = arena_alloc(tmp, sizeof(Val) * (size_t)(ninv_then + 1));
      for (int i = 0; i < ninv_then; i++) inv_then[i] = inv_acc[i].sum;
    }
  }
  Node *m = node_new(R->a, IR_IF, n->loc);
  m->u.ifs.cond = P(n->u.ifs.cond);
  m->u.ifs.then = blks[0];
  m->u.ifs.els = blks[1];
  m->u.ifs.outs = ARENA_ARRAY(R->a, Val, nv + ninv_acc);
  for (int v = 1; v < nv; v++) {
    Val t = after_then[v], e = R->adj[v];
    if (t == snap[v] && e == snap[v]) continue;
    R->adj[v] = if_merge(R, m, blks, t, e, R->pf->vals[v].type);
  }
  for (int i = 0; i < ninv_acc; i++) {
    Val before = i < ninv0 ? inv0[i] : 0, t = i < ninv_then ? inv_then[i] : before;
    Val e = inv_acc[i].sum;
    if (t == before && e == before) continue;
    inv_acc[i].sum = if_merge(R, m, blks, t, e, val_type(R->f, t ? t : e));
  }
  R->b.blk = outer;
  if (m->u.ifs.nouts || blks[0]->n || blks[1]->n) b_push(&R->b, m);
  arena_free(if_tmp[--nif_tmp]);
}

static void rev_node(Rev *R, const Node *n) {
  Val g = n->out ? R->adj[n->out] : 0;
  Builder *b = &R->b;
  switch (n->kind) {
  case IR_CONST: return;
  case IR_UNOP:
    if (g && n->u.un.op == UN_NEG) adj_add(R, n->u.un.a, b_neg(b, g));
    return;
  case IR_BINOP:
    if (g) rev_binop(R, n, g);
    return;
  case IR_CALL:
    if (!g) return;
    for (int k = 0; k < math_arity(n->u.call.fn); k++) {
      Val arg = k ? n->u.call.b : n->u.call.a;
      if (!R->varied[arg]) continue;
      Val d = deriv_call(b, n->u.call.fn, k, P(n->u.call.a), n->u.call.b ? P(n->u.call.b) : 0,
                         P(n->out));
      adj_add(R, arg, b_mul(b, g, d));
    }
    return;
  case IR_CAST:
    if (g && ty_is_float(R->pf->vals[n->u.cast.a].type)) adj_add(R, n->u.cast.a, g);
    return;
  case IR_READ: rev_read(R, n); return;
  case IR_WRITE: rev_write(R, n); return;
  case IR_IF: rev_if(R, n); return;
  case IR_PAR: rev_par(R, n); return;
  case IR_RETURN: return;
  case IR_LOOP: rev_seq_loop(R, n); return;
  case IR_UPDATE: rev_update(R, n); return;
  case IR_ALLOC: case IR_FREE: return; // temporaries: their adjoints live until the end
  case IR_ACC: case IR_COPY: case IR_SORT: break;
  }
  UNREACHABLE();
}

static void rev_block(Rev *R, const Block *b) {
  for (int i = b->n - 1; i >= 0; i--) rev_node(R, b->stmts[i]);
}

// ---- parallel loops ----

// What this version differentiates; everything else is refused with the construct named.
static void check_reductions(Rev *R, const Node *n) {
  if (n->u.par.nscans)
    diag_error(n->loc, NULL, "reverse mode of scan(...) is not supported yet");
  for (int h = 0; h < n->u.par.nhists; h++) {
    const Hist *hc = &n->u.par.hists[h];
    if (hc->op == RED_ADD || !R->varied[hc->arr]) continue;
    const char *op = hc->user_fn ? hc->user_fn : redop_name(hc->op);
    if (!hist_aux(R, n))
      diag_error(n->loc, "hist(+) is differentiated there; the other operators at the top level of the function",
                 "reverse mode of hist(%s: ...) inside another loop or an if is not "
                 "supported yet", op);
  }
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    if (red->op == RED_USER && (!red->inv || !red->commutative))
      diag_error(n->loc, "a declared operator without inverse(fn), or not commutative, is "
                 "differentiated at the top level of the function (as a scan)",
                 "reverse mode of reduce(%s: ...) inside another loop or an if is not supported "
                 "yet", red->user_fn);
    if (red->nf != 1 && red->op != RED_USER)
      diag_error(n->loc, NULL, "reverse mode of reduce(%s: ...) on structs is not supported yet",
                 red->user_fn ? red->user_fn : redop_name(red->op));
  }
}

static void clear_adj(Rev *R, const Block *b) {
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

// The invertible-operator rule (papers/reduce-scan-hist-rules.md §2.6): for a commutative
// operator with an inverse, y = b OP x where b = inv(y, x) is the reduction of everything
// else; so x's adjoint is g * d(b OP x)/dx, the reverse mode of the operator's own body.
// y, x, g and the result dx have the reduction's nf fields (values of f; g[f] may be 0).
static void user_partial(Rev *R, const Red *red, const Val *y, const Val *x, const Val *g,
                         Val *dx);

// g * d(b OP x)/dx with b = inv(y, x), for the declared operator of hist clause h.
static Val user_hist_partial(Rev *R, const Hist *h, Val y, Val x, Val g) {
  Red red = {.op = RED_USER, .nf = 1, .lam = h->lam, .inv = h->inv, .commutative = true,
             .user_fn = h->user_fn, .var = h->var};
  Val dx = 0;
  user_partial(R, &red, &y, &x, &g, &dx);
  return dx ? dx : b_const_f(&R->b, val_type(R->f, x), 0);
}

static void user_partial(Rev *R, const Red *red, const Val *y, const Val *x, const Val *g,
                         Val *dx) {
  const Lambda *op = red->lam;
  user_invert(&R->b, R->pf, red, R->pv, y, x);
  clone_block(&R->b, R->pf, op->body, R->pv, false);
  for (int f = 0; f < red->nf; f++) R->adj[op->pa[f]] = R->adj[op->pb[f]] = 0;
  clear_adj(R, op->body);
  for (int f = 0; f < red->nf; f++) adj_add(R, op->body->yields[f], g[f]);
  rev_block(R, op->body);
  for (int f = 0; f < red->nf; f++) dx[f] = R->adj[op->pb[f]];
  clear_adj(R, op->body); // the operator's values are used again (the initial value)
  for (int f = 0; f < red->nf; f++) R->adj[op->pa[f]] = R->adj[op->pb[f]] = 0;
}

// The seeds g of a user reduction's result, fields of the enclosing adjoint table; false if
// all are zero.
static bool user_seeds(const Red *red, const Val *adj, Val *g) {
  bool any = false;
  for (int f = 0; f < red->nf; f++) any |= (g[f] = adj[red->out[f]]) != 0;
  return any;
}

// A user reduction's operand (the contributions x, or the initial value) gets its adjoint.
static void user_adjoint(Rev *R, const Red *red, const Val *host_adj, const Val *xs) {
  int nf = red->nf;
  Val *g = ARENA_ARRAY(R->a, Val, nf), *y = ARENA_ARRAY(R->a, Val, nf),
      *x = ARENA_ARRAY(R->a, Val, nf), *dx = ARENA_ARRAY(R->a, Val, nf);
  if (!user_seeds(red, host_adj, g)) return;
  for (int f = 0; f < red->nf; f++) y[f] = P(red->out[f]), x[f] = P(xs[f]);
  user_partial(R, red, y, x, g, dx);
  for (int f = 0; f < red->nf; f++) adj_add(R, xs[f], dx[f]);
}

// Adds a +-reduction of the per-iteration value `sum` to the reverse loop m; returns the
// host value of the total.
static Val add_sum_reduction(Rev *R, Node *m, Val sum, Type *t, Block *host) {
  Builder hb = {R->f, host, m->loc};
  Red *reds = ARENA_ARRAY(R->a, Red, m->u.par.nreds + 1);
  if (m->u.par.nreds) memcpy(reds, m->u.par.reds, sizeof(Red) * (size_t)m->u.par.nreds);
  block_yield(R->a, m->u.par.body, sum);
  Val init = ty_is_float(t) ? b_const_f(&hb, t, 0) : b_const_i(&hb, t, 0);
  Val *iv = ARENA_ARRAY(R->a, Val, 1), *ov = ARENA_ARRAY(R->a, Val, 1);
  iv[0] = init;
  ov[0] = fn_val(R->f, t, NULL);
  reds[m->u.par.nreds] = (Red){.op = RED_ADD, .nf = 1, .init = iv, .out = ov,
                               .slot = m->u.par.body->nyields - 1, .var = "adj"};
  m->u.par.reds = reds;
  return reds[m->u.par.nreds++].out[0];
}

static bool block_writes_active(Rev *R, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_WRITE && R->abar[n->u.mem.arr]) return true;
    if (n->kind == IR_IF &&
        (block_writes_active(R, n->u.ifs.then) || block_writes_active(R, n->u.ifs.els)))
      return true;
  }
  return false;
}

// If the only adjoint entering loop n is that of one min/max reduction, only the winning
// iteration contributes anything: its index, else -1.
static int single_seed(Rev *R, const Node *n, const Val *host_adj) {
  int only = -1;
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    if (!host_adj[red->out[0]]) continue;
    if ((red->op != RED_MIN && red->op != RED_MAX) || only >= 0) return -1;
    only = r;
  }
  return only >= 0 && !block_writes_active(R, n->u.par.body) ? only : -1;
}

// A parallel loop over [0, len) whose body the rule fills through R->b; pushed by rev_loop_end.
static Node *rev_loop(Rev *R, const Node *n, Val len, Block **outer) {
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

static void rev_loop_end(Rev *R, Node *m, Block *outer) {
  R->b.blk = outer;
  b_push(&R->b, m);
}

// The reverse of a canonical scan dst = exclusive_scan(OP, init, src) over [0, len), out the
// total.  For +: src_bar[j] += out_bar + sum_{k > j} dst_bar[k] (a reverse exclusive scan of
// dst_bar from out_bar), init_bar += out_bar + sum_k dst_bar[k] (that scan's total).
static void rev_scan(Rev *R, const Node *n, const Val *src, const Val *dst) {
  const Scan *s = &n->u.par.scans[0];
  Builder *b = &R->b;
  Type *t = R->pf->vals[s->out[0]].type;
  Val gout = R->adj[s->out[0]] ? R->adj[s->out[0]] : zero_of(R, t);
  Val len = P(n->u.par.hi), sbar = R->abar[src[0]], dbar = R->abar[dst[0]];
  IR_ASSERT(dbar); // the prefixes vary whenever the scan does
  Val g = scan_alloc(b, t, len, arena_printf(R->a, "%s_suffix", s->var));
  Scan rs = *s;
  rs.reverse = true;
  rs.lam = NULL;
  Val total = fn_val(R->f, t, NULL); // out_bar + sum_k dst_bar[k]
  scan_build(b, R->pf, &rs, &dbar, &g, len, &gout, &total, n->loc, n->u.par.pragma);
  if (sbar) { // src_bar[j] += g[j]
    Block *outer;
    Node *m = rev_loop(R, n, len, &outer);
    b_acc(b, sbar, m->u.par.idx, b_read(b, g, m->u.par.idx), ACC_PLAIN);
    rev_loop_end(R, m, outer);
  }
  scan_free(b, g);
  if (R->varied[s->init[0]]) adj_add(R, s->init[0], total);
}

// x when v is 1 * x or x * 1 (what a seed of 1 leaves in a Jacobian entry), else v.
static Val times_one(const Fn *f, Val v) {
  const Node *d = v ? f->defs[v] : NULL;
  if (!d || d->kind != IR_BINOP || d->u.bin.op != BIN_MUL) return v;
  for (int side = 0; side < 2; side++) {
    const Node *c = f->defs[side ? d->u.bin.b : d->u.bin.a];
    if (c && c->kind == IR_CONST && c->u.cst.f == 1.0 && ty_is_float(val_type(f, v)))
      return side ? d->u.bin.a : d->u.bin.b;
  }
  return v;
}

// The Jacobians of one step x OP y of scan s at (x, y) (values of f): ja[k * nf + m] =
// d(x OP y)_k / dx_m, jb likewise for y (0: structurally zero; jb may be NULL).  For a
// declared operator, one reverse pass over its body per field of the result.  A tie of min
// or max keeps x, the earlier candidate (language.md §7).
static void scan_jacobian(Rev *R, const Scan *s, const Val *x, const Val *y, Val *ja, Val *jb) {
  Builder *b = &R->b;
  int nf = s->nf;
  if (s->op != RED_USER) {
    Type *t = val_type(R->f, x[0]);
    Val one = b_const_f(b, t, 1), zero = b_const_f(b, t, 0), c;
    switch (s->op) {
    case RED_ADD: ja[0] = one; if (jb) jb[0] = one; return;
    case RED_MUL: ja[0] = y[0]; if (jb) jb[0] = x[0]; return;
    case RED_MIN: c = b_binop(b, BIN_LT, y[0], x[0]); break;
    case RED_MAX: c = b_binop(b, BIN_GT, y[0], x[0]); break;
    default: UNREACHABLE();
    }
    ja[0] = b_select(b, c, zero, one);
    if (jb) jb[0] = b_select(b, c, one, zero);
    return;
  }
  const Lambda *op = s->lam;
  for (int f = 0; f < nf; f++) R->pv[op->pa[f]] = x[f], R->pv[op->pb[f]] = y[f];
  clone_block(b, R->pf, op->body, R->pv, false);
  for (int k = 0; k < nf; k++) {
    for (int f = 0; f < nf; f++) R->adj[op->pa[f]] = R->adj[op->pb[f]] = 0;
    clear_adj(R, op->body);
    adj_add(R, op->body->yields[k], b_const_f(b, val_type(R->f, x[k]), 1));
    rev_block(R, op->body);
    for (int m = 0; m < nf; m++) {
      ja[k * nf + m] = times_one(R->f, R->adj[op->pa[m]]);
      if (jb) jb[k * nf + m] = times_one(R->f, R->adj[op->pb[m]]);
    }
  }
  clear_adj(R, op->body);
  for (int f = 0; f < nf; f++) R->adj[op->pa[f]] = R->adj[op->pb[f]] = 0;
}

// The general rule (papers/reduce-scan-hist-rules.md §2.16, §2.19-2.20) for a canonical scan
// dst = exclusive_scan(OP, init, src) with total out.  With E_k = dst[k] (E_n = out) and
// J_k = d(E_k OP src[k])/dE_k, the adjoints satisfy  Ebar_k = dst_bar[k] + J_k^T Ebar_{k+1},
// Ebar_n = out_bar;  so  g_k = Ebar_{k+1}  is a reverse exclusive scan of the affine maps
// (J_k^T, dst_bar[k]) from the constant out_bar (ad_scan.c), src_bar[k] += vjp_y(g_k) and
// init_bar += Ebar_0, the scan's total.  Exact with zeros (no division); min/max ties as the
// step's Jacobian decides them, to the earlier candidate.
static void rev_scan_general(Rev *R, const Node *n, const Val *src, const Val *dst) {
  const Scan *s = &n->u.par.scans[0];
  int d = s->nf;
  Builder *b = &R->b;
  Val len = P(n->u.par.hi);
  Type *ft[LIN_MAXF];
  if (d > LIN_MAXF)
    diag_error(n->loc, "scan fields that do not depend on each other in separate clauses",
               "reverse mode of scan(%s: ...) on a struct of more than %d fields is not supported",
               s->user_fn, LIN_MAXF);
  for (int f = 0; f < d; f++) {
    ft[f] = R->pf->vals[s->out[f]].type;
    IR_ASSERT(R->abar[dst[f]]); // the prefixes vary whenever the scan does
    if (ft[f] != ft[0])
      diag_error(n->loc, "make every field of the struct double (or every field float)",
                 "reverse mode of scan(%s: ...) over a struct of mixed float and double fields "
                 "is not supported", s->user_fn);
  }
  // 1. the steps' transposed Jacobians, per group of equal blocks
  Block *outer;
  Node *m1 = rev_loop(R, n, len, &outer);
  Val x[LIN_MAXF], y[LIN_MAXF], ja[LIN_MAXF * LIN_MAXF];
  for (int f = 0; f < d; f++) {
    x[f] = b_read(b, P(dst[f]), m1->u.par.idx);
    y[f] = b_read(b, P(src[f]), m1->u.par.idx);
  }
  scan_jacobian(R, s, x, y, ja, NULL);
  LinShape sh;
  lin_shape(R->f, d, ja, &sh);
  int nf = sh.nmat + d;
  Val *lsrc = ARENA_ARRAY(R->a, Val, nf), *ldst = ARENA_ARRAY(R->a, Val, nf),
      *linit = ARENA_ARRAY(R->a, Val, nf), *lout = ARENA_ARRAY(R->a, Val, nf);
  bool *lmine = ARENA_ARRAY(R->a, bool, nf); // lsrc[k] is an array of the rule's own
  Block *body = R->b.blk;
  R->b.blk = outer;
  for (int g = 0; g < sh.ngroups; g++) {
    int q = sh.q[sh.rep[g]], o = sh.moff[g];
    for (int i = 0; i < q; i++)
      for (int j = 0; j < q; j++) {
        Val e = lin_entry(&sh, ja, g, i, j, true);
        int k = o + i * q + j;
        linit[k] = b_const_f(b, ft[0], i == j);
        lout[k] = fn_val(R->f, ft[0], NULL);
        lsrc[k] = 0;
        for (int f = 0; f < d && !lsrc[k]; f++) // an element of the scan itself: no copy
          lsrc[k] = e == y[f] ? P(src[f]) : e == x[f] ? P(dst[f]) : 0;
        if (lsrc[k]) continue;
        lsrc[k] = scan_alloc(b, ft[0], len, arena_printf(R->a, "%s_jac", s->var));
        lmine[k] = true;
        R->b.blk = body;
        b_write(b, lsrc[k], m1->u.par.idx, e ? e : b_const_f(b, ft[0], 0));
        R->b.blk = outer;
      }
  }
  R->b.blk = body;
  bool copies = false;
  for (int k = 0; k < sh.nmat; k++) copies |= lmine[k];
  if (copies) rev_loop_end(R, m1, outer);
  else R->b.blk = outer;
  // 2. g_k: the reverse scan of the affine maps (J_k^T, dst_bar[k]) from out_bar
  for (int f = 0; f < d; f++) {
    int k = sh.nmat + f;
    lsrc[k] = R->abar[dst[f]];
    ldst[k] = scan_alloc(b, ft[f], len, arena_printf(R->a, "%s_suffix", s->var));
    linit[k] = R->adj[s->out[f]] ? R->adj[s->out[f]] : zero_of(R, ft[f]);
    lout[k] = fn_val(R->f, ft[f], NULL);
  }
  Scan ls = {.op = RED_USER, .nf = nf, .lam = lin_lambda(R->f, &sh, ft, n->loc), .reverse = true,
             .user_fn = arena_printf(R->a, "affine maps of %s", s->user_fn ? s->user_fn : redop_name(s->op)),
             .var = s->var};
  scan_build(b, R->f, &ls, lsrc, ldst, len, linit, lout, n->loc, n->u.par.pragma);
  // 3. src_bar[k] += dy(E_k OP y)^T g_k
  bool any = false;
  for (int f = 0; f < d; f++) any |= R->abar[src[f]] != 0;
  if (any) {
    Node *m3 = rev_loop(R, n, len, &outer);
    Val jb[LIN_MAXF * LIN_MAXF], gk[LIN_MAXF];
    for (int f = 0; f < d; f++) {
      x[f] = b_read(b, P(dst[f]), m3->u.par.idx);
      y[f] = b_read(b, P(src[f]), m3->u.par.idx);
      gk[f] = b_read(b, ldst[sh.nmat + f], m3->u.par.idx);
    }
    scan_jacobian(R, s, x, y, ja, jb);
    for (int f = 0; f < d; f++) {
      if (!R->abar[src[f]]) continue;
      Val sum = 0;
      for (int k = 0; k < d; k++)
        if (jb[k * d + f]) sum = b_add(b, sum, b_mul(b, jb[k * d + f], gk[k]));
      if (sum) b_acc(b, R->abar[src[f]], m3->u.par.idx, sum, ACC_PLAIN);
    }
    rev_loop_end(R, m3, outer);
  }
  for (int k = 0; k < nf; k++)
    if (k >= sh.nmat || lmine[k]) scan_free(b, k < sh.nmat ? lsrc[k] : ldst[k]);
  for (int f = 0; f < d; f++)
    if (R->varied[s->init[f]]) adj_add(R, s->init[f], lout[sh.nmat + f]);
}

// Does clause h of loop n need the section before and after it (hist(*/min/max/declared))?
static bool hist_needs_aux(Rev *R, const Node *n, int h) {
  const Hist *hc = &n->u.par.hists[h];
  return (hc->op != RED_ADD || R->general) && R->varied[hc->arr];
}

// Is clause hc differentiated by the general rule (no inverse, or --general-rule)?
static bool hist_by_general(const Rev *R, const Hist *hc) {
  return R->general || (hc->op == RED_USER && !hc->inv);
}

typedef struct {
  Rev *R;
  const Hist *hc;
} RevOp;

// d(a OP x)/dx (left: /da) for hist_general, by the reverse mode of the operator's body.
static Val rev_dop(void *ctx, Builder *b, Val a, Val x, bool left) {
  RevOp *o = ctx;
  Rev *R = o->R;
  Builder saved = R->b;
  R->b = *b;
  Scan sc = {.op = o->hc->op, .nf = 1, .lam = o->hc->lam, .user_fn = o->hc->user_fn};
  Val ja[1], jb[1];
  scan_jacobian(R, &sc, &a, &x, ja, jb);
  Val d = left ? ja[0] : jb[0];
  if (!d) d = b_const_f(&R->b, val_type(R->f, x), 0);
  R->b = saved;
  return d;
}

// Forward sweep, top-level loop n: the sections of its histograms before it (after: true,
// after it), for the reverse rules of hist(*/min/max/declared).
static void hist_save(Rev *R, const Node *n, bool after) {
  if (n->kind != IR_PAR || !n->u.par.nhists) return;
  HistAux *x = after ? (HistAux *)hist_aux(R, n) : NULL;
  for (int h = 0; h < n->u.par.nhists; h++) {
    if (!hist_needs_aux(R, n, h)) continue;
    const Hist *hc = &n->u.par.hists[h];
    if (after && hist_by_general(R, hc)) continue; // the general rule needs the initial only
    if (!x) {
      x = SCRATCH(HistAux, 1);
      int nh = n->u.par.nhists;
      *x = (HistAux){n, SCRATCH(Val, nh), SCRATCH(Val, nh), SCRATCH(Val, nh), SCRATCH(Val, nh),
                     SCRATCH(Val, nh), SCRATCH(Val, nh), SCRATCH(Val, nh), R->haux};
      R->haux = x;
    }
    Val c = hist_copy(&R->b, P(hc->arr), P(hc->lo), P(hc->len),
                      arena_printf(R->a, "%s_%s", hc->var, after ? "after" : "before"));
    if (after) x->h1[h] = c;
    else x->h0[h] = c;
  }
}

// The passes the reverse of loop n's histograms needs before its reverse loop.
static void hist_prepare(Rev *R, const Node *n) {
  HistAux *x = (HistAux *)hist_aux(R, n);
  for (int h = 0; x && h < n->u.par.nhists; h++) {
    if (!hist_needs_aux(R, n, h)) continue;
    RedOp op = n->u.par.hists[h].op;
    if (hist_by_general(R, &n->u.par.hists[h])) {
      RevOp o = {R, &n->u.par.hists[h]};
      hist_general(&R->b, R->pf, n, R->pv, h, x->h0[h], rev_dop, &o, &x->D[h], &x->DI[h]);
    } else if (op == RED_MIN || op == RED_MAX) {
      x->win[h] = hist_winners(&R->b, R->pf, n, R->pv, h, x->h0[h], x->h1[h]);
    } else if (op == RED_MUL) {
      hist_mul_counts(&R->b, R->pf, n, R->pv, h, &x->nz[h], &x->pr[h]);
    }
  }
}

// After loop n's reverse loop: the adjoint of each section's initial contents (per bin, the
// bin's adjoint times d(final)/d(initial)), and the temporaries freed.
static void hist_finish(Rev *R, const Node *n) {
  HistAux *x = (HistAux *)hist_aux(R, n);
  Builder *b = &R->b;
  for (int h = 0; x && h < n->u.par.nhists; h++) {
    if (!hist_needs_aux(R, n, h)) continue;
    const Hist *hc = &n->u.par.hists[h];
    Val abar = R->abar[hc->arr], len = P(hc->len);
    Type *t = R->pf->vals[hc->arr].type->elem;
    Block *outer;
    Node *m = rev_loop(R, n, len, &outer);
    Val j = m->u.par.idx, at = b_binop(b, BIN_ADD, b_cast(b, &ty_long, P(hc->lo)), b_cast(b, &ty_long, j));
    Val g = b_read(b, abar, at), d;
    switch (hist_by_general(R, hc) ? RED_USER : hc->op) {
    case RED_MIN: case RED_MAX: {
      Val init = b_binop(b, BIN_EQ, b_read(b, x->win[h], j), b_const_i(b, &ty_long, -1));
      d = b_select(b, init, g, b_const_f(b, t, 0));
      break;
    }
    case RED_MUL: d = b_mul(b, g, hist_mul_partial(b, x->h0[h], x->nz[h], x->pr[h], j, 0)); break;
    case RED_USER:
      if (!hist_by_general(R, hc))
        d = user_hist_partial(R, hc, b_read(b, x->h1[h], j), b_read(b, x->h0[h], j), g);
      else
        d = b_mul(b, g, b_read(b, x->DI[h], j));
      break;
    default: UNREACHABLE();
    }
    b_write(b, abar, at, d);
    rev_loop_end(R, m, outer);
    Val tmp[7] = {x->h0[h], x->h1[h], x->win[h], x->nz[h], x->pr[h], x->D[h], x->DI[h]};
    for (int k = 0; k < 7; k++)
      if (tmp[k]) scan_free(b, tmp[k]);
  }
}

// Can primal index expression v (defined in the loop) be computed again outside the reverse
// loop, from the loop index and values outside the loop?
static bool index_clonable(Rev *R, Val v, int *budget) {
  if (!R->in_par[v] || v == R->par->u.par.idx) return true;
  const Node *d = R->def[v];
  if (!d || --*budget < 0) return false;
  switch (d->kind) {
  case IR_CONST: return true;
  case IR_UNOP: return index_clonable(R, d->u.un.a, budget);
  case IR_CAST: return index_clonable(R, d->u.cast.a, budget);
  case IR_BINOP:
    return index_clonable(R, d->u.bin.a, budget) && index_clonable(R, d->u.bin.b, budget);
  default: return false;
  }
}

// v with the loop index replaced by i (values of f), at the builder's point.
static Val index_at(Rev *R, Val v, Val i) {
  if (v == R->par->u.par.idx) return i;
  if (!R->in_par[v]) return P(v);
  const Node *d = R->def[v];
  Node *c = node_new(R->a, d->kind, d->loc);
  c->u = d->u;
  switch (d->kind) {
  case IR_UNOP: c->u.un.a = index_at(R, d->u.un.a, i); break;
  case IR_CAST: c->u.cast.a = index_at(R, d->u.cast.a, i); break;
  case IR_BINOP:
    c->u.bin.a = index_at(R, d->u.bin.a, i);
    c->u.bin.b = index_at(R, d->u.bin.b, i);
    break;
  default: break;
  }
  c->out = fn_val(R->f, R->pf->vals[v].type, NULL);
  b_push(&R->b, c);
  return c->out;
}

// The index expressions of the reads of arr in b (directly, or in ifs), into x; false if a
// read is in a nested loop or is not a*i + c with x's a, or there are too many.
static bool stencil_reads(Rev *R, const Block *b, Val arr, Offsets *x, long long *coef) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if ((n->kind == IR_LOOP || n->kind == IR_PAR) && block_reads_in_par(n->kind == IR_LOOP ?
        n->u.loop.body : n->u.par.body, arr, true))
      return false;
    if (n->kind == IR_IF && (block_reads_in_par(n->u.ifs.then, arr, true) ||
                             block_reads_in_par(n->u.ifs.els, arr, true)))
      return false; // (a guarded x[i-1] may not exist where the later loops would add to it)
    if (n->kind != IR_READ || n->u.mem.arr != arr || is_invariant(R, n->u.mem.idx)) continue;
    IndexForm f = index_form(R->def, R->in_par, n->u.mem.idx, R->par->u.par.idx);
    int budget = 256; // (each stencil read is computed again per offset: index_at)
    if (!f.affine || !f.coef || (*coef && f.coef != *coef) ||
        !index_clonable(R, n->u.mem.idx, &budget))
      return false;
    *coef = f.coef;
    int k = 0;
    while (k < x->n && !index_same(R->def, x->idx[k], n->u.mem.idx)) k++;
    if (k == x->n) {
      if (x->n == MAX_OFFSETS) return false;
      x->idx[x->n++] = n->u.mem.idx;
    }
  }
  return true;
}

// The arrays of loop n (reversed at the top level) read as a stencil: their per-iteration
// adjoint arrays, allocated at the builder's point (before the reverse loop).
static void plan_offsets(Rev *R, const Node *n) {
  Val len = 0;
  R->noffs = 0;
  if (R->depth > 1 || R->seq_depth) return;
  R->offs = SCRATCH(Offsets, R->pf->nparams + 1);
  for (int p = 0; p < R->pf->nparams; p++) {
    Val arr = R->pf->params[p].val, first = 0;
    if (!R->pf->params[p].is_array || !R->abar[arr] || ir_writes(n->u.par.body, arr) ||
        reads_injective(R, n->u.par.body, arr, &first))
      continue;
    Offsets *x = &R->offs[R->noffs];
    *x = (Offsets){arr, 0, {0}, {0}};
    long long coef = 0;
    if (!stencil_reads(R, n->u.par.body, arr, x, &coef) || x->n < 2) continue;
    if (!len) {
      Builder *b = &R->b;
      Val d = b_binop(b, BIN_SUB, b_cast(b, &ty_long, P(n->u.par.hi)), b_cast(b, &ty_long, P(n->u.par.lo)));
      len = b_select(b, b_binop(b, BIN_GT, d, b_const_i(b, &ty_long, 0)), d, b_const_i(b, &ty_long, 0));
    }
    for (int k = 1; k < x->n; k++)
      x->tmp[k] = scan_alloc(&R->b, R->pf->vals[arr].type->elem, len,
                             arena_printf(R->a, "%s_bar_at", R->pf->vals[arr].hint));
    R->noffs++;
  }
}

// After the reverse loop: each stored class's adjoints added, one loop per class.
static void finish_offsets(Rev *R, const Node *n) {
  for (int o = 0; o < R->noffs; o++) {
    const Offsets *x = &R->offs[o];
    for (int k = 1; k < x->n; k++) {
      Node *f = node_new(R->a, IR_PAR, n->loc);
      f->u.par.lo = P(n->u.par.lo);
      f->u.par.hi = P(n->u.par.hi);
      f->u.par.idx = fn_val(R->f, R->pf->vals[n->u.par.idx].type, "j");
      f->u.par.pragma = n->u.par.pragma;
      f->u.par.reds = ARENA_NEW(R->a, Red);
      f->u.par.scans = ARENA_NEW(R->a, Scan);
      f->u.par.hists = ARENA_NEW(R->a, Hist);
      Block *outer = R->b.blk;
      f->u.par.body = R->b.blk = block_new(R->a);
      Val i = b_binop(&R->b, BIN_SUB, b_cast(&R->b, &ty_long, f->u.par.idx),
                      b_cast(&R->b, &ty_long, f->u.par.lo));
      b_acc(&R->b, R->abar[x->arr], index_at(R, x->idx[k], f->u.par.idx),
            b_read(&R->b, x->tmp[k], i), ACC_PLAIN);
      R->b.blk = outer;
      b_push(&R->b, f);
      scan_free(&R->b, x->tmp[k]);
    }
  }
  R->noffs = 0;
}

static void rev_par(Rev *R, const Node *n) {
  int nf = n->u.par.nscans == 1 ? n->u.par.scans[0].nf : 1;
  Val src[nf], dst[nf];
  if (n->u.par.nscans == 1 && scan_canonical(n, src, dst)) {
    const Scan *s = &n->u.par.scans[0];
    bool varies = false; // a scan of constants from a constant (acc += 1.5): no adjoint flows
    for (int f = 0; f < s->nf; f++)
      varies |= R->varied[s->out[f]] || R->varied[s->excl[f]] || (dst[f] && R->abar[dst[f]]);
    if (!varies) return;
    if (n->u.par.scans[0].op == RED_ADD && !R->general)
      rev_scan(R, n, src, dst);
    else
      rev_scan_general(R, n, src, dst);
    return;
  }
  check_reductions(R, n);
  hist_prepare(R, n);
  int nv = R->pf->nvals;
  // a nested loop: the state of the enclosing one's reversal, restored at the end
  const Node *outer_par = R->par;
  unsigned char *outer_in = R->in_par;
  Val *outer_hoisted = R->hoisted;
  InvAcc *outer_inv = inv_acc;
  int outer_ninv = ninv_acc, outer_cap = cap_inv_acc;
  inv_acc = NULL;
  cap_inv_acc = 0;
  R->depth++;
  int outer_seq = R->seq_depth;
  R->seq_depth = 0;
  Val *host_adj = R->adj;
  R->adj = SCRATCH(Val, nv);
  R->in_par = SCRATCH(unsigned char, nv);
  R->hoisted = SCRATCH(Val, nv);
  R->par = n;
  note_def(R, (Node *)n, R->in_par);
  ninv_acc = 0;

  Block *host = R->b.blk;
  bool top = R->depth == 1;
  if (top) { // per-thread adjoints of shared elements (acc_shared)
    R->shared = SCRATCH(Shared, MAX_SHARED);
    R->nshared = 0;
    R->top_host = host;
    R->top_par = n;
    R->top_in = R->in_par;
    R->loop_of = SCRATCH(const Node *, nv);
    note_loops(n->u.par.body, R->loop_of);
  }
  // min/max: which element holds the extremum (a pass before the reverse loop)
  Val *k = SCRATCH(Val, n->u.par.nreds + 1), *init_wins = SCRATCH(Val, n->u.par.nreds + 1);
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    if ((red->op != RED_MIN && red->op != RED_MAX) || !host_adj[red->out[0]]) continue;
    if (R->winner[red->out[0]]) {
      k[r] = R->winner[red->out[0]];
      init_wins[r] = b_binop(&R->b, BIN_EQ, k[r], b_const_i(&R->b, &ty_long, -1));
      continue;
    }
    init_wins[r] = b_binop(&R->b, BIN_EQ, P(red->init[0]), P(red->out[0]));
    k[r] = argext_pass(&R->b, R->pf, n, r, P(red->out[0]), R->pv);
  }
  // reduce(*) not lifted into a primal loop of f_vjp (nested in a loop or an if): a pass
  bool *mul_passed = SCRATCH(bool, n->u.par.nreds + 1);
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    Val y = red->out[0];
    if (red->op != RED_MUL || !host_adj[y] || R->mul_nz[y]) continue;
    mul_pass(&R->b, R->pf, n, r, R->pv, &R->mul_nz[y], &R->mul_p[y]);
    mul_passed[r] = true;
  }
  Node *m = node_new(R->a, IR_PAR, n->loc);
  m->u.par.lo = P(n->u.par.lo);
  m->u.par.hi = P(n->u.par.hi);
  int only = single_seed(R, n, host_adj);
  if (only >= 0) { // one iteration holds the whole adjoint: run just it (or none: init wins)
    Type *it = R->pf->vals[n->u.par.idx].type;
    Val kk = b_cast(&R->b, it, k[only]);
    m->u.par.lo = b_select(&R->b, init_wins[only], P(n->u.par.hi), kk);
    m->u.par.hi = b_select(&R->b, init_wins[only], P(n->u.par.hi),
                           b_binop(&R->b, BIN_ADD, kk, b_const_i(&R->b, it, 1)));
  }
  m->u.par.pragma = n->u.par.pragma;
  m->u.par.reds = ARENA_ARRAY(R->a, Red, 1);
  Offsets *outer_offs = R->offs;
  int outer_noffs = R->noffs;
  plan_offsets(R, n);
  m->u.par.idx = clone_val(R->f, R->pf, n->u.par.idx, R->pv);
  m->u.par.body = R->b.blk = block_new(R->a);
  clone_block(&R->b, R->pf, n->u.par.body, R->pv, true); // re-execution, no writes
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    if (red->op == RED_USER) {
      user_adjoint(R, red, host_adj, n->u.par.body->yields + red->slot);
      continue;
    }
    Val g = host_adj[red->out[0]], x = n->u.par.body->yields[red->slot];
    if (!g) continue;
    switch (red->op) {
    case RED_ADD: adj_add(R, x, g); break;
    case RED_MUL:
      adj_add(R, x, b_mul(&R->b, g, mul_partial(&R->b, P(x), R->mul_nz[red->out[0]],
                                                  R->mul_p[red->out[0]])));
      break;
    case RED_MIN:
    case RED_MAX: {
      Val win = is_winner(&R->b, m->u.par.idx, k[r], init_wins[r]);
      adj_add(R, x, b_select(&R->b, win, g, b_const_f(&R->b, val_type(R->f, g), 0)));
      break;
    }
    case RED_USER: UNREACHABLE(); // before the switch
    }
  }
  rev_block(R, n->u.par.body);

  // adjoints of values from outside the loop: summed over the iterations
  Val *total = SCRATCH(Val, nv);
  for (int v = 1; v < nv; v++)
    if (R->adj[v] && !R->in_par[v]) total[v] = add_sum_reduction(R, m, R->adj[v], R->pf->vals[v].type, host);
  Val *inv_total = SCRATCH(Val, ninv_acc + 1);
  for (int i = 0; i < ninv_acc; i++)
    inv_total[i] = add_sum_reduction(R, m, inv_acc[i].sum, val_type(R->f, inv_acc[i].sum), host);
  R->b.blk = host;
  if (top) {
    finish_shared(R, m);
    R->shared = NULL;
  }
  b_push(&R->b, m);
  finish_offsets(R, n);
  R->offs = outer_offs;
  R->noffs = outer_noffs;
  for (int i = 0; i < ninv_acc; i++) // in a nested loop, other iterations of the outer run too
    b_acc(&R->b, R->abar[inv_acc[i].arr], hoist(R, inv_acc[i].idx), inv_total[i],
          R->depth > 1 ? ACC_ATOMIC : ACC_PLAIN);

  R->adj = host_adj;
  for (int v = 1; v < nv; v++)
    if (total[v]) adj_add(R, v, total[v]);
  for (int r = 0; r < n->u.par.nreds; r++) { // the initial value is one more operand
    const Red *red = &n->u.par.reds[r];
    if (red->op == RED_USER) {
      user_adjoint(R, red, host_adj, red->init);
      continue;
    }
    Val g = host_adj[red->out[0]], init = red->init[0];
    if (!g) continue;
    Builder *b = &R->b;
    switch (red->op) {
    case RED_ADD: adj_add(R, init, g); break;
    case RED_MUL:
      adj_add(R, init, b_mul(b, g, mul_partial(b, P(init), R->mul_nz[red->out[0]],
                                               R->mul_p[red->out[0]])));
      break;
    case RED_MIN:
    case RED_MAX:
      adj_add(R, init, b_select(b, init_wins[r], g, b_const_f(b, val_type(R->f, g), 0)));
      break;
    case RED_USER: UNREACHABLE(); // before the switch
    }
  }
  for (int r = 0; r < n->u.par.nreds; r++) // the pass's values live in this block only
    if (mul_passed[r]) R->mul_nz[n->u.par.reds[r].out[0]] = R->mul_p[n->u.par.reds[r].out[0]] = 0;
  hist_finish(R, n);
  R->par = outer_par;
  R->in_par = outer_in;
  R->hoisted = outer_hoisted;
  inv_acc = outer_inv;
  ninv_acc = outer_ninv;
  cap_inv_acc = outer_cap;
  R->seq_depth = outer_seq;
  R->depth--;
}

// ---- saving overwritten elements ----

static bool block_reads_in_par(const Block *b, Val arr, bool in_par);

static bool node_reads_in_par(const Node *n, Val arr, bool in_par) {
  switch (n->kind) {
  case IR_READ: return in_par && n->u.mem.arr == arr;
  case IR_IF:
    return block_reads_in_par(n->u.ifs.then, arr, in_par) ||
           block_reads_in_par(n->u.ifs.els, arr, in_par);
  case IR_PAR: return block_reads_in_par(n->u.par.body, arr, true);
  case IR_LOOP: return block_reads_in_par(n->u.loop.body, arr, in_par);
  default: return false;
  }
}

static bool block_reads_in_par(const Block *b, Val arr, bool in_par) {
  for (int i = 0; i < b->n; i++)
    if (node_reads_in_par(b->stmts[i], arr, in_par)) return true;
  return false;
}

// Does every write of arr in b (nested loops included) use the index idx itself?
static bool writes_at_index(const Block *b, Val arr, Val idx) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_WRITE && n->u.mem.arr == arr && n->u.mem.idx != idx) return false;
    if (n->kind == IR_IF &&
        (!writes_at_index(n->u.ifs.then, arr, idx) || !writes_at_index(n->u.ifs.els, arr, idx)))
      return false;
    if (n->kind == IR_PAR && !writes_at_index(n->u.par.body, arr, idx)) return false;
    if (n->kind == IR_LOOP && !writes_at_index(n->u.loop.body, arr, idx)) return false;
  }
  return true;
}

static int regions_of(Rev *R, const Node *n, Region *reg);
static void loop_regions(Rev *R, const Block *b, const unsigned char *inside, Val *memo,
                         Region *reg, int *nreg, Val cond);

// Before statement k of a host-level block: which arrays does it overwrite that a parallel
// loop at or before k reads (and so re-reads in the reverse sweep)?  A sequential loop's
// reverse leaves what it overwrote as before the loop; at the function's level its
// elements are saved too, to be the outputs again at the end.
static void plan_saves(Rev *R, const Block *body, int k, bool top, Save *out, int *nout) {
  const Node *n = body->stmts[k];
  *nout = 0;
  if (n->kind == IR_LOOP) {
    if (!top) return;
    Region reg[MAX_REGIONS];
    int nreg = regions_of(R, n, reg);
    for (int r = 0; r < nreg; r++)
      out[(*nout)++] = (Save){reg[r].arr, 0, 0, 0, reg[r].vlo, reg[r].vn};
    return;
  }
  for (int pi = 0; pi < R->pf->nparams; pi++) {
    Val arr = R->pf->params[pi].val;
    if (!R->pf->params[pi].is_array || !ir_writes(&(Block){(Node **)&body->stmts[k], 1, 1}, arr))
      continue;
    bool needed = false;
    for (int j = 0; j <= k && !needed; j++)
      needed = node_reads_in_par(body->stmts[j], arr, false);
    if (!needed) continue;
    if (n->kind == IR_PAR && !writes_at_index(n->u.par.body, arr, n->u.par.idx))
      diag_error(n->loc, "write the array at the loop index itself (y[i] = ...), not in a nested "
                 "loop, or write the new values to another array",
                 "this loop overwrites elements of '%s' that a parallel loop reads, at an index "
                 "other than the loop index: saving them is not supported yet",
                 R->pf->vals[arr].hint);
    if (n->kind == IR_PAR) {
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

static void emit_save(Rev *R, Save *s) {
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

static void emit_swap(Rev *R, const Save *s) {
  Node *sw = node_new(R->a, IR_COPY, R->b.loc); // arr[lo:lo+n] <-> save[0:n]
  sw->u.copy.dst = s->save;
  sw->u.copy.src = P(s->arr);
  sw->u.copy.n = s->vn;
  sw->u.copy.off = s->vlo;
  sw->u.copy.swap = true;
  b_push(&R->b, sw);
}


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


static Val sweep_block(Rev *R, const Block *body, bool top);

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
    Val ops[2] = {0, 0};
    switch (d->kind) {
    case IR_UNOP: ops[0] = d->u.un.a; break;
    case IR_BINOP: ops[0] = d->u.bin.a, ops[1] = d->u.bin.b; break;
    case IR_CAST: ops[0] = d->u.cast.a; break;
    case IR_CALL: ops[0] = d->u.call.a, ops[1] = d->u.call.b; break;
    default: break;
    }
    bool ready = true;
    for (int k = 1; k >= 0; k--) // the first operand on top: made first, as C evaluates
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
    Val m[2];
    for (int k = 0; k < 2; k++) m[k] = !ops[k] ? 0 : inside[ops[k]] ? memo[ops[k]] : P(ops[k]);
    Node *c = node_new(R->a, d->kind, d->loc);
    c->u = d->u;
    switch (d->kind) {
    case IR_UNOP: c->u.un.a = m[0]; break;
    case IR_BINOP: c->u.bin.a = m[0], c->u.bin.b = m[1]; break;
    case IR_CAST: c->u.cast.a = m[0]; break;
    case IR_CALL: c->u.call.a = m[0], c->u.call.b = m[1]; break;
    default: break;
    }
    c->out = memo[t] = fn_val(R->f, R->pf->vals[t].type, R->pf->vals[t].hint);
    b_push(&R->b, c);
    n--;
  }
  free(stack);
  return memo[v];
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

// The elements [lo, hi) of arr (primal; hi == 0: the one element lo) as a region.
// cond (a value of f, 0: none): the section is written only where it holds (an if), and is
// then saved only where it holds (it may lie outside the array otherwise).
static void add_region(Rev *R, Region *reg, int *nreg, Val arr, Val lo, Val hi,
                       const unsigned char *inside, Val *memo, Loc loc, Val cond) {
  if (inside[arr] || !R->varied[arr]) return; // a temporary of one iteration, or inactive
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

// What the statements of b (in a sequential loop) overwrite, as regions.
static void loop_regions(Rev *R, const Block *b, const unsigned char *inside, Val *memo,
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
        if (!writes_at_index(n->u.par.body, arrs[k], n->u.par.idx) && R->varied[arrs[k]])
          diag_error(n->loc, "write the array at the loop index itself (y[i] = ...), or write "
                     "the new values to another array",
                     "this loop, in a sequential loop, writes '%s' at an index other than the "
                     "loop index: checkpointing it is not supported", R->pf->vals[arrs[k]].hint);
        add_region(R, reg, nreg, arrs[k], n->u.par.lo, n->u.par.hi, inside, memo, n->loc, cond);
      }
      for (int h = 0; h < n->u.par.nhists; h++) {
        const Hist *hc = &n->u.par.hists[h];
        if (inside[hc->arr] || !R->varied[hc->arr]) continue;
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
    default: break;
    }
  }
}

static void loop_inside(const Node *n, unsigned char *inside) {
  ir_inside(&(Block){(Node **)&n, 1, 1, NULL, 0}, inside);
  for (int k = 0; k < n->u.loop.ncarry; k++) inside[n->u.loop.outs[k]] = 0;
}

// The regions of loop n, bounds computed at the builder's point (before the loop).
static int regions_of(Rev *R, const Node *n, Region *reg) {
  unsigned char *inside = SCRATCH(unsigned char, R->pf->nvals);
  loop_inside(n, inside);
  Val *memo = SCRATCH(Val, R->pf->nvals);
  int nreg = 0;
  loop_regions(R, n->u.loop.body, inside, memo, reg, &nreg, 0);
  return nreg;
}

// Is every element of arr that body b writes written, before anything reads arr, in every
// iteration?  (Its one section is written first by a parallel loop that does not read arr,
// unconditionally at the loop index; elements outside the section are never written.)
static bool overwritten_first(const Block *b, Val arr) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    Block one = {(Node **)&b->stmts[i], 1, 1, NULL, 0};
    bool reads = block_reads_in_par(&one, arr, true), writes = ir_writes(&one, arr);
    if (!reads && !writes) continue;
    if (n->kind == IR_LOOP) { // a nested loop that may run no iterations: nothing after it
      for (int j = i + 1; j < b->n; j++) {
        Block rest = {(Node **)&b->stmts[j], 1, 1, NULL, 0};
        if (block_reads_in_par(&rest, arr, true) || ir_writes(&rest, arr)) return false;
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
    bool single = reg[r].plo && reg[r].phi;
    for (int q = 0; q < nreg; q++)
      single &= q == r || reg[q].arr != reg[r].arr;
    reg[r].once = single && overwritten_first(n->u.loop.body, reg[r].arr);
  }
  (void)R;
}

static Val tape_alloc(Rev *R, Type *elem, Val n, const char *hint) {
  Node *al = node_new(R->a, IR_ALLOC, R->b.loc);
  al->u.alloc.n = n;
  al->u.alloc.tape = true;
  al->out = fn_val(R->f, ty_ptr(R->a, elem, false), arena_printf(R->a, "%s_ckpt", hint ? hint : "carried"));
  b_push(&R->b, al);
  return al->out;
}

static void tape_free(Rev *R, Val tape, Val n) {
  Node *fr = node_new(R->a, IR_FREE, R->b.loc);
  fr->u.copy.dst = tape;
  fr->u.copy.n = n;
  fr->u.copy.tape = true;
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
  Buf b = {0};
  if (n->u.loop.note) buf_printf(&b, "%s; ", n->u.loop.note);
  buf_puts(&b, "f_vjp saves per iteration:");
  int items = 0;
  for (int r = 0; r < x->nreg; r++) {
    bool seen = false;
    for (int q = 0; q < r; q++) seen |= x->reg[q].arr == x->reg[r].arr;
    if (!seen && !x->reg[r].once)
      buf_printf(&b, "%s the elements of %s it overwrites", items++ ? "," : "",
                 R->pf->vals[x->reg[r].arr].hint);
  }
  for (int k = 0; k < n->u.loop.ncarry; k++)
    if (x->stape[k]) {
      const char *h = R->pf->vals[n->u.loop.params[k]].hint;
      buf_printf(&b, "%s %s", items++ ? "," : "", h ? h : "a carried value");
    }
  if (!items) buf_puts(&b, " nothing");
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

// The forward run of host-level loop n: each iteration first saves its state.
static void fwd_seq_loop(Rev *R, const Node *n) {
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
  for (int r = 0; r < x->nreg; r++) {
    Region *g = &x->reg[r];
    g->tape = tape_alloc(R, R->pf->vals[g->arr].type->elem,
                         g->once ? g->vn : b_binop(b, BIN_MUL, x->T, g->vn), R->pf->vals[g->arr].hint);
    if (g->once) copy_elems(R, g->tape, 0, P(g->arr), g->vlo, g->vn);
  }
  int *uses = SCRATCH(int, nv);
  count_block(n->u.loop.body, uses);
  x->stape = SCRATCH(Val, nc + 1);
  for (int k = 0; k < nc; k++)
    if (uses[n->u.loop.params[k]] && !running_sum(R, n, k, uses))
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
  Block *outer = b->blk;
  m->u.loop.body = b->blk = block_new(R->a);
  Val s = b_binop(b, BIN_SUB, b_cast(b, &ty_long, m->u.loop.idx), x->lo);
  for (int r = 0; r < x->nreg; r++)
    if (!x->reg[r].once)
      copy_elems(R, x->reg[r].tape, b_binop(b, BIN_MUL, s, x->reg[r].vn), P(x->reg[r].arr),
                 x->reg[r].vlo, x->reg[r].vn);
  for (int k = 0; k < nc; k++)
    if (x->stape[k]) b_write(b, x->stape[k], s, m->u.loop.params[k]);
  clone_block(b, R->pf, n->u.loop.body, R->pv, false);
  for (int k = 0; k < nc; k++) block_yield(R->a, m->u.loop.body, P(n->u.loop.body->yields[k]));
  b->blk = outer;
  for (int k = 0; k < nc; k++) m->u.loop.outs[k] = clone_val(R->f, R->pf, n->u.loop.outs[k], R->pv);
  b_push(b, m);
}

// Inside a parallel loop: the carried values (other than running sums) at the start of
// iteration t, recomputed from the loop's start; running sums' values are never read.
static void recompute_carried(Rev *R, const Node *n, Val t, const int *uses) {
  Builder *b = &R->b;
  int nc = n->u.loop.ncarry, nr = 0;
  int *slot = SCRATCH(int, nc + 1);
  for (int k = 0; k < nc; k++) {
    Val p = n->u.loop.params[k];
    if (running_sum(R, n, k, uses)) {
      slot[k] = -1;
      R->pv[p] = ty_is_float(R->pf->vals[p].type) ? b_const_f(b, R->pf->vals[p].type, 0)
                                                   : b_const_i(b, R->pf->vals[p].type, 0);
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

static void rev_seq_loop(Rev *R, const Node *n) {
  LoopAux *x = loop_aux(R, n);
  Val arrs[MAX_REGIONS];
  int nw = 0;
  written_arrays(n->u.loop.body, arrs, &nw);
  if (!x && !R->par && nw) // (without writes it is reversed as in a parallel loop's body)
    diag_error(n->loc, "move the loop out of the if, to the function's level",
               "reverse mode of a sequential loop that writes arrays inside an if at the "
               "function's level is not supported");
  if (!x && ir_updates_in_place(n->u.loop.body)) // its iterations are re-run without writes
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
  if (x) { // restore iteration t's state
    for (int r = 0; r < x->nreg; r++)
      if (!x->reg[r].once)
        copy_elems(R, P(x->reg[r].arr), x->reg[r].vlo, x->reg[r].tape,
                   b_binop(b, BIN_MUL, s, x->reg[r].vn), x->reg[r].vn);
    for (int k = 0; k < nc; k++) {
      Val p = n->u.loop.params[k];
      Type *ty = R->pf->vals[p].type;
      R->pv[p] = x->stape[k] ? b_read(b, x->stape[k], s)
                             : ty_is_float(ty) ? b_const_f(b, ty, 0) : b_const_i(b, ty, 0);
    }
    R->pv[n->u.loop.idx] = t;
    for (int a = npa; a < na; a++) R->adj[of[a]] = m->u.loop.params[a];
    for (int a = 0; a < npa; a++) adj_add(R, body->yields[kk[a]], m->u.loop.params[a]);
    sweep_block(R, body, false);
  } else {
    recompute_carried(R, n, t, uses);
    R->pv[n->u.loop.idx] = t;
    clone_block(b, R->pf, body, R->pv, true); // iteration t again, no writes
    for (int a = npa; a < na; a++) R->adj[of[a]] = m->u.loop.params[a];
    for (int a = 0; a < npa; a++) adj_add(R, body->yields[kk[a]], m->u.loop.params[a]);
    R->seq_depth++;
    rev_block(R, body);
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
      Val cnt = b_select(b, any, x->reg[r].vn, b_const_i(b, &ty_long, 0));
      copy_elems(R, P(x->reg[r].arr), x->reg[r].vlo, x->reg[r].tape, b_const_i(b, &ty_long, 0), cnt);
    }
    for (int r = 0; r < x->nreg; r++)
      tape_free(R, x->reg[r].tape, x->reg[r].once ? x->reg[r].vn : b_binop(b, BIN_MUL, T, x->reg[r].vn));
    for (int k = 0; k < nc; k++)
      if (x->stape[k]) tape_free(R, x->stape[k], T);
  }
  for (int a = npa; a < na; a++) R->adj[of[a]] = m->u.loop.outs[a];
  for (int a = 0; a < npa; a++) adj_add(R, n->u.loop.init[kk[a]], m->u.loop.outs[a]);
}

// The forward and reverse sweeps over the statements of a host-level block: the function's
// body (top; returns the returned value), or a sequential loop's body in one iteration of
// its reverse.
static Val sweep_block(Rev *R, const Block *body, bool top) {
  const Fn *pf = R->pf;
  Save *saves = SCRATCH(Save, body->n * (pf->nparams + MAX_REGIONS) + 1);
  int *save_at = SCRATCH(int, body->n + 1), nsaves = 0;
  Val ret = 0;
  for (int k = 0; k < body->n; k++) {
    const Node *n = body->stmts[k];
    R->b.loc = n->loc;
    int ns;
    plan_saves(R, body, k, top, saves + nsaves, &ns);
    for (int s = 0; s < ns; s++) emit_save(R, &saves[nsaves + s]);
    save_at[k] = ns;
    nsaves += ns;
    if (n->kind == IR_RETURN) {
      ret = n->u.ret.v;
      continue;
    }
    if (n->kind == IR_FREE) continue; // the reverse sweep reads temporaries: freed at the end
    if (n->kind == IR_LOOP) {
      fwd_seq_loop(R, n);
      continue;
    }
    hist_save(R, n, false);
    clone_block(&R->b, pf, &(Block){(Node **)&body->stmts[k], 1, 1, NULL, 0}, R->pv, false);
    hist_save(R, n, true);
    if (n->kind == IR_ALLOC && R->varied[n->out]) // its adjoint, zeroed
      R->abar[n->out] = scan_alloc(&R->b, pf->vals[n->out].type->elem, P(n->u.alloc.n),
                                   arena_printf(R->a, "%s_bar", pf->vals[n->out].hint));
    Node *c = n->kind == IR_PAR ? R->b.blk->stmts[R->b.blk->n - 1] : NULL; // n's clone
    if (n->kind == IR_PAR) // reduce(*), min, max: what the reverse needs, in the same loop
      for (int r = 0; r < n->u.par.nreds; r++) {
        const Red *red = &n->u.par.reds[r];
        if (red->nf != 1 || !R->varied[red->out[0]]) continue;
        if (red->op == RED_MUL)
          lift_mul(&R->b, c, r, &R->mul_nz[red->out[0]], &R->mul_p[red->out[0]]);
        if (red->op == RED_MIN || red->op == RED_MAX) // the winner found in the same loop
          R->winner[red->out[0]] = lift_argext(&R->b, c, r);
      }
  }

  // reverse sweep
  if (top && ret && ty_is_float(pf->ret) && R->varied[ret])
    R->adj[ret] = R->f->params[R->f->nparams - 1].val;
  int si = nsaves;
  for (int k = body->n - 1; k >= 0; k--) {
    R->b.loc = body->stmts[k]->loc;
    si -= save_at[k];
    // pre-k contents back; in the reverse order of the epilogue's swaps, which undo these
    // (two saved sections of one array may overlap: a loop's histogram and its map)
    for (int s = save_at[k] - 1; s >= 0; s--) emit_swap(R, &saves[si + s]);
    rev_node(R, body->stmts[k]);
  }

  // epilogue: outputs as f leaves them (in a loop's body the next restore does it)
  for (int s = 0; top && s < nsaves; s++) emit_swap(R, &saves[s]);
  for (int s = 0; s < nsaves; s++) scan_free(&R->b, saves[s].save);
  for (int k = 0; k < body->n; k++) { // temporaries and their adjoints
    const Node *n = body->stmts[k];
    if (n->kind != IR_FREE) continue;
    scan_free(&R->b, P(n->u.copy.dst));
    if (R->abar[n->u.copy.dst]) scan_free(&R->b, R->abar[n->u.copy.dst]);
  }
  return ret;
}

// ---- the function ----

static Fn *vjp_signature(Rev *R) {
  const Fn *pf = R->pf;
  Fn *f = fn_new(R->a, arena_printf(R->a, "%s_vjp", pf->name), pf->loc);
  f->ret = pf->ret;
  f->params = ARENA_ARRAY(R->a, Param, pf->nparams * 2 + 1);
  for (int i = 0; i < pf->nparams; i++) {
    const Param *p = &pf->params[i];
    Param *q = &f->params[f->nparams++];
    *q = *p;
    q->val = R->pv[p->val] = fn_val(f, p->type, p->name);
    if (!p->active) continue;
    Param *d = &f->params[f->nparams++];
    *d = *p;
    d->name = arena_printf(R->a, "%s_bar", p->name);
    Type *elem = p->is_array ? p->type->elem : p->type;
    d->type = ty_ptr(R->a, elem, false);
    d->is_array = true;
    d->written = true;
    d->active = false;
    d->is_float = false;
    d->val = fn_val(f, d->type, d->name);
    if (p->is_array) R->abar[p->val] = d->val;
  }
  if (ty_is_float(pf->ret)) {
    Param *d = &f->params[f->nparams++];
    *d = (Param){"ret_bar", pf->ret, 0, pf->loc, true, false, false, false};
    d->val = fn_val(f, pf->ret, "ret_bar");
  }
  return f;
}

Fn *ad_vjp(Arena *a, const Fn *pf, bool general) {
  Rev rv = {a, pf}, *R = &rv;
  R->general = general;
  int nv = pf->nvals;
  R->pv = SCRATCH(Val, nv);
  R->adj = SCRATCH(Val, nv);
  R->abar = SCRATCH(Val, nv);
  R->def = SCRATCH(Node *, nv);
  R->mul_nz = SCRATCH(Val, nv);
  R->mul_p = SCRATCH(Val, nv);
  R->winner = SCRATCH(Val, nv);
  R->varied = activity_varied(ad_scratch(), pf);
  note_defs(R, pf->body, NULL);
  R->f = vjp_signature(R);
  R->b = (Builder){R->f, R->f->body, pf->loc};

  Val ret = sweep_block(R, pf->body, true);
  for (int i = 0, j = 0; i < pf->nparams; i++, j++) {
    const Param *p = &pf->params[i];
    if (!p->active) continue;
    j++;
    if (!p->is_array && R->adj[p->val])
      b_acc(&R->b, R->f->params[j].val, b_const_i(&R->b, &ty_int, 0), R->adj[p->val], ACC_PLAIN);
  }
  Node *rn = node_new(a, IR_RETURN, pf->loc);
  rn->u.ret.v = ret ? P(ret) : 0;
  b_push(&R->b, rn);

  ad_release_scratch();
  simplify_fold(R->f);
  simplify_dce(R->f);
  ir_verify(R->f, "vjp");
  return R->f;
}
