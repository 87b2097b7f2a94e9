// ad/rev.c: reverse mode, f -> f_vjp (language.md §2.1): the sweeps, and the rules of the
// statements that are not combinators (arithmetic, reads, writes, branches).
//
//   forward sweep   the primal, cloned; before a statement that overwrites array elements
//                   that an earlier (or the same) loop, parallel or sequential, reads
//                   (and its reverse reads again), those elements are saved (rev_save.c)
//   reverse sweep   the top-level statements in reverse order, each by its rule: a parallel
//                   loop by map's (rev_map.c, with the reduce, scan and hist rules of its
//                   clauses), a sequential loop by the checkpointing rule (rev_loop.c)
//   epilogue        saved elements swapped back, so outputs hold what f writes;
//                   *p_bar += adjoint of each active scalar parameter.
//
// Statements (papers/nested-parallel-ad.md §2):  y = a OP b   =>   a_bar += y_bar * dOP/da,
// b_bar += y_bar * dOP/db;   y = x[i]   =>   x_bar[i] += y_bar (an accumulator: rev_map.c);
// if (c) A else B   =>   if (c) reverse(A) else reverse(B), the adjoints merged.
#include <stdlib.h>
#include <string.h>

#include "rev.h"

// ---- helpers ----

static void rev_block(Rev *R, const Block *b);
static Val sweep_block(Rev *R, const Block *body, bool top);

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

// --remarks: how the adjoint of an array read in parallel loop R->par is accumulated, once
// per loop, array and way.
static void remark_acc(Rev *R, Val arr, const char *how) {
  if (!diag_remarks()) return;
  for (int i = 0; i < R->nremarked; i++)
    if (R->remarked[i].par == R->par && R->remarked[i].arr == arr && R->remarked[i].how == how)
      return;
  if (R->nremarked < MAX_REMARKED)
    R->remarked[R->nremarked++] = (struct Remarked){R->par, arr, how};
  diag_remark(R->par->loc, "adjoint of '%s' in the reverse loop: %s", R->pf->vals[arr].hint, how);
}

// An update of arr's adjoint that other iterations may make at the same element: a
// per-thread copy of the interval it reaches (acc_shared), else an atomic add.
static void acc_atomic(Rev *R, const Node *n, Val g, const char *why) {
  Val arr = n->u.mem.arr;
  if (acc_shared(R, arr, n->u.mem.idx, g)) {
    remark_acc(R, arr, "per-thread copies of the interval its indices reach, summed after "
                       "the loop (iterations may update the same elements)");
    return;
  }
  if (acc_color(R, arr, n->u.mem.idx, g)) {
    remark_acc(R, arr, "plain updates, the loop in chunks run in two phases (iterations that "
                       "may update the same elements are never run at the same time)");
    return;
  }
  if (acc_window(R, arr, n->u.mem.idx, g)) {
    remark_acc(R, arr, "on the C target, a window per thread of the elements its updates reach, "
                       "added after the loop (atomic adds beyond ADSOAC_WINDOW_MAX elements; CUDA: "
                       "atomic adds)");
    return;
  }
  remark_acc(R, arr, why);
  b_acc(&R->b, R->abar[arr], P(n->u.mem.idx), g, ACC_ATOMIC);
}

static void rev_read(Rev *R, const Node *n) {
  Val g = R->adj[n->out], abar = R->abar[n->u.mem.arr];
  if (!g || !abar) return;
  if (!R->par) { // host level: one element
    b_acc(&R->b, abar, P(n->u.mem.idx), g, ACC_PLAIN);
    return;
  }
  Val idx = n->u.mem.idx;
  if (R->priv[n->u.mem.arr]) { // an array of the iteration's own (of the thread's)
    remark_acc(R, n->u.mem.arr, "plain updates (the iteration's own array)");
    b_acc(&R->b, abar, P(idx), g, ACC_PLAIN);
    return;
  }
  if (row_of_top(R, n->u.mem.arr)) { // a row of the thread's own
    remark_acc(R, n->u.mem.arr, "plain updates (each iteration reads a row of its own)");
    b_acc(&R->b, abar, P(idx), g, ACC_PLAIN);
    return;
  }
  if (R->depth > 1 && !is_invariant(R, idx)) { // iterations of the outer loop run in parallel
    acc_atomic(R, n, g, "atomic adds (a nested loop's reads, the outer iterations in parallel)");
    return;
  }
  if (idx != R->par->u.par.idx && is_invariant(R, idx) && R->seq_depth) { // every thread
    // (a per-loop sum would leave the loop's scope)
    acc_atomic(R, n, g, "atomic adds (an element every iteration reads, in a sequential loop)");
    return;
  }
  for (int o = 0; o < R->noffs && !is_invariant(R, idx); o++) {
    const Offsets *x = &R->offs[o];
    if (x->arr != n->u.mem.arr) continue;
    int k = 0;
    while (k < x->n && !index_same(R->def, x->idx[k], idx)) k++;
    IR_ASSERT(k < x->n); // (plan_offsets saw every read)
    remark_acc(R, n->u.mem.arr, "a temporary per index expression (a stencil), summed "
                                "after the loop; no atomics");
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
    remark_acc(R, n->u.mem.arr, "a reduction (+) over the loop (an element every iteration "
                                "reads), added after it");
    for (int i = 0; i < R->ninv_acc; i++)
      if (R->inv_acc[i].arr == n->u.mem.arr && R->inv_acc[i].idx == idx) {
        R->inv_acc[i].sum = b_add(&R->b, R->inv_acc[i].sum, g);
        return;
      }
    if (R->ninv_acc == R->cap_inv_acc) {
      R->cap_inv_acc = R->cap_inv_acc ? 2 * R->cap_inv_acc : 8;
      InvAcc *v = SCRATCH(InvAcc, R->cap_inv_acc);
      if (R->ninv_acc) memcpy(v, R->inv_acc, sizeof(InvAcc) * (size_t)R->ninv_acc);
      R->inv_acc = v;
    }
    R->inv_acc[R->ninv_acc++] = (InvAcc){n->u.mem.arr, idx, g};
    return;
  }
  if (reads_injective(R, n->u.mem.arr)) {
    bool said = false;
    for (int k = 0; k < R->par->u.par.ninjective; k++) said |= R->par->u.par.injective[k] == n->u.mem.arr;
    remark_acc(R, n->u.mem.arr, said ? "plain updates (injective(...): taken on the user's word)"
                                     : "plain updates (each iteration reads elements of its own)");
    b_acc(&R->b, abar, P(idx), g, ACC_PLAIN);
    return;
  }
  acc_atomic(R, n, g, "atomic adds (iterations may read the same elements)");
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

// r = fn(a1, ..., an), a function with declared derivatives: its vjp with seed g gives the
// adjoints of the active arguments (or, with only a jvp, one call per active argument gives
// the partial derivatives).
static void rev_ext(Rev *R, const Node *n, Val g) {
  const ExtFn *e = n->u.ext.fn;
  int np = e->nparams, na = ext_nactive(e);
  Val *args = SCRATCH(Val, np + 1), *d = SCRATCH(Val, na + 1);
  for (int k = 0; k < np; k++) args[k] = P(n->u.ext.args[k]);
  bool vjp = e->vjp != NULL;
  if (vjp) {
    args[np] = g;
    Node *m = b_ext(&R->b, e, EXT_VJP, args, np + 1, na);
    memcpy(d, m->u.ext.outs, sizeof(Val) * (size_t)na);
  } else {
    deriv_ext(&R->b, e, args, d);
  }
  for (int k = 0, j = 0; k < np; k++) {
    if (!ext_active(e, k)) continue;
    Val a = n->u.ext.args[k], x = d[j++];
    if (R->varied[a]) adj_add(R, a, vjp ? x : b_mul(&R->b, g, x));
  }
}

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
  case BIN_MOD: case BIN_LT: case BIN_LE: case BIN_GT: case BIN_GE: case BIN_EQ: case BIN_NE:
  case BIN_LAND: case BIN_LOR: case BIN_BAND: case BIN_BOR: case BIN_BXOR: case BIN_SHL:
  case BIN_SHR: return; // integer and comparison operators carry no derivative
  }
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
// So do the pending sums of loop-invariant elements (R->inv_acc): a contribution made in a
// branch counts only where the branch runs (the other side yields the sum as it was).
static void rev_if(Rev *R, const Node *n) {
  int nv = R->pf->nvals;
  size_t sz = sizeof(Val) * (size_t)nv;
  if (R->cx->nif_tmp == 256) diag_error(n->loc, NULL, "ifs nested too deeply");
  Arena *tmp = arena_new(0); // per if: freed below (or with the scratch on an error)
  R->cx->if_tmp[R->cx->nif_tmp++] = tmp;
  Val *snap = arena_alloc(tmp, sz), *after_then = arena_alloc(tmp, sz);
  memcpy(snap, R->adj, sz);
  int ninv0 = R->ninv_acc, ninv_then = 0;
  Val *inv0 = arena_alloc(tmp, sizeof(Val) * (size_t)(ninv0 + 1)), *inv_then = NULL;
  for (int i = 0; i < ninv0; i++) inv0[i] = R->inv_acc[i].sum;
  Block *outer = R->b.blk, *blks[2] = {block_new(R->a), block_new(R->a)};
  const Block *src[2] = {n->u.ifs.then, n->u.ifs.els};
  // in a parallel loop's body, an if that writes the iteration's arrays: its statements read
  // what it wrote, so it is swept (run again, then reversed) rather than only reversed
  bool sweeps = R->par && writes_own_arrays(R, n);
  for (int side = 0; side < 2; side++) {
    memcpy(R->adj, snap, sz);
    for (int i = 0; i < R->ninv_acc; i++) R->inv_acc[i].sum = i < ninv0 ? inv0[i] : 0;
    R->b.blk = blks[side];
    for (int k = 0; k < n->u.ifs.nouts; k++) adj_add(R, src[side]->yields[k], snap[n->u.ifs.outs[k]]);
    if (sweeps) // the branch again, from the iteration's arrays as they were before the if
      R->sweep(R, src[side], false);
    else
      rev_block(R, src[side]);
    if (side == 0) {
      memcpy(after_then, R->adj, sz);
      ninv_then = R->ninv_acc;
      inv_then = arena_alloc(tmp, sizeof(Val) * (size_t)(ninv_then + 1));
      for (int i = 0; i < ninv_then; i++) inv_then[i] = R->inv_acc[i].sum;
    }
  }
  Node *m = node_new(R->a, IR_IF, n->loc);
  m->u.ifs.cond = P(n->u.ifs.cond);
  m->u.ifs.then = blks[0];
  m->u.ifs.els = blks[1];
  m->u.ifs.outs = ARENA_ARRAY(R->a, Val, nv + R->ninv_acc);
  for (int v = 1; v < nv; v++) {
    Val t = after_then[v], e = R->adj[v];
    if (t == snap[v] && e == snap[v]) continue;
    R->adj[v] = if_merge(R, m, blks, t, e, R->pf->vals[v].type);
  }
  for (int i = 0; i < R->ninv_acc; i++) {
    Val before = i < ninv0 ? inv0[i] : 0, t = i < ninv_then ? inv_then[i] : before;
    Val e = R->inv_acc[i].sum;
    if (t == before && e == before) continue;
    R->inv_acc[i].sum = if_merge(R, m, blks, t, e, val_type(R->f, t ? t : e));
  }
  R->b.blk = outer;
  if (m->u.ifs.nouts || blks[0]->n || blks[1]->n) b_push(&R->b, m);
  arena_free(R->cx->if_tmp[--R->cx->nif_tmp]);
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
      Val arg = k == 0 ? n->u.call.a : k == 1 ? n->u.call.b : n->u.call.c;
      if (!R->varied[arg]) continue;
      Val d = deriv_call(b, n->u.call.fn, k, P(n->u.call.a), n->u.call.b ? P(n->u.call.b) : 0,
                         n->u.call.c ? P(n->u.call.c) : 0, P(n->out));
      adj_add(R, arg, b_mul(b, g, d));
    }
    return;
  case IR_EXT: if (g) rev_ext(R, n, g); return;
  case IR_CAST:
    if (g && ty_is_float(R->pf->vals[n->u.cast.a].type)) adj_add(R, n->u.cast.a, g);
    return;
  case IR_READ: rev_read(R, n); return;
  case IR_WRITE: rev_write(R, n); return;
  case IR_IF: rev_if(R, n); return;
  case IR_PAR: rev_par(R, n); return;
  case IR_RETURN: return;
  case IR_LOOP:
    // A loop that ends on a flag is, here, the run that counts the iterations of the loop
    // after it (transform/counted.c): only its count is used, an integer.
    if (!n->u.loop.exit) rev_seq_loop(R, n);
    return;
  case IR_UPDATE: rev_update(R, n); return;
  case IR_ALLOC: case IR_FREE: return; // temporaries: their adjoints live until the end
  case IR_COLL: // the adjoint collective (language.md §10), into its input's adjoint
    if (n->u.coll.out && R->abar[n->u.coll.in] && R->abar[n->u.coll.out])
      deriv_coll(b, n, COLL_VJP, R->pv, R->abar[n->u.coll.in], R->abar[n->u.coll.out]);
    return;
  case IR_ACC: case IR_COPY: case IR_SORT: break;
  }
  UNREACHABLE();
}

static void rev_block(Rev *R, const Block *b) {
  for (int i = b->n - 1; i >= 0; i--) rev_node(R, b->stmts[i]);
}

// The forward and reverse sweeps over the statements of a host-level block: the function's
// body (top; returns the returned value), or a sequential loop's body in one iteration of
// its reverse.
// The state of the sweeps over a block between its forward and its reverse sweep.
typedef struct Sweep {
  Save *saves;
  int *save_at, nsaves;
  Val ret;
  Skips *skips; // a loop body's statements not run again (rev_skip.c; NULL: none)
} Sweep;

// The forward sweep over the statements of a block (see sweep_block).  Inside a parallel
// loop's reverse (R->par: its body, or the body of a sequential loop in it being reversed)
// the block's writes go only to the loop's own arrays (the iteration's, R->in_par: the other
// arrays are as the primal left them), a sequential loop that writes those arrays keeps
// checkpoints (fwd_seq_loop), the others are re-run in their reverse.
static void sweep_fwd(Rev *R, const Block *body, bool top, Sweep *sw) {
  const Fn *pf = R->pf;
  bool in_par = R->par && !top;
  int narr;
  user_arrays(R, &narr);
  sw->saves = SCRATCH(Save, body->n * (narr + MAX_REGIONS) + 1);
  sw->save_at = SCRATCH(int, body->n + 1);
  sw->nsaves = 0;
  sw->ret = 0;
  // one iteration of a host-level sequential loop's reverse: what need not run again
  // (not in a store-all loop's forward run: that is the run whose values the reverse reads)
  sw->skips = !top && !R->par && !R->sweep_all ? rev_skips(R, body) : NULL;
  // (its parallel loops' costly values on tapes for their reverse: not at the top, where
  // fusion joins a loop and its reverse; in a store-all forward run, kept per iteration)
  bool tapes = !top;
  R->sweep_all = false;
  Save *saves = sw->saves;
  for (int k = 0; k < body->n; k++) {
    const Node *n = body->stmts[k];
    R->b.loc = n->loc;
    int ns;
    if (sw->skips && sw->skips->skip[k]) {
      sw->save_at[k] = 0;
      continue;
    }
    if (in_par)
      plan_private_saves(R, body, k, saves + sw->nsaves, &ns);
    else
      plan_saves(R, body, k, top, saves + sw->nsaves, &ns);
    for (int s = 0; s < ns; s++) emit_save(R, &saves[sw->nsaves + s]);
    sw->save_at[k] = ns;
    sw->nsaves += ns;
    if (n->kind == IR_RETURN) {
      sw->ret = n->u.ret.v;
      continue;
    }
    if (n->kind == IR_FREE) continue; // the reverse sweep reads temporaries: freed at the end
    if (n->kind == IR_LOOP && !n->u.loop.exit &&
        (!in_par || writes_own_arrays(R, n) || carries_state(R, n))) {
      fwd_seq_loop(R, n, top); // (an exit: a counting run, cloned below)
      if (top) moving_saved(R, n, saves + sw->nsaves - ns, ns);
      continue;
    }
    Block one = {(Node **)&body->stmts[k], 1, 1, NULL, 0};
    Node *clone = NULL; // (of a parallel loop, not in one)
    if (in_par) {
      clone_block_keep(&R->b, pf, &one, R->pv, R->in_par);
    } else {
      hist_save(R, n, false);
      clone_block(&R->b, pf, &one, R->pv, false);
      if (n->kind == IR_PAR) { // the elements its writes overwrite, on tapes (rev_save.c)
        tape_saves(R, clone = R->b.blk->stmts[R->b.blk->n - 1], saves + sw->nsaves - ns, ns);
        hist_win_record(R, n, clone);
      }
      hist_save(R, n, true);
    }
    if (n->kind == IR_ALLOC && R->varied[n->out]) // its adjoint, zeroed
      R->abar[n->out] = scan_alloc(&R->b, pf->vals[n->out].type->elem, P(n->u.alloc.n),
                                   arena_printf(R->a, "%s_bar", pf->vals[n->out].hint));
    Node *c = n->kind == IR_PAR && !in_par ? R->b.blk->stmts[R->b.blk->n - 1] : NULL; // n's clone
    if (c) // reduce(*), min, max: what the reverse needs, in the same loop
      for (int r = 0; r < n->u.par.nreds; r++) {
        const Red *red = &n->u.par.reds[r];
        if (red->nf != 1 || !R->varied[red->out[0]]) continue;
        if (red->op == RED_MUL)
          lift_mul(&R->b, c, r, &R->mul_nz[red->out[0]], &R->mul_p[red->out[0]]);
        if (red->op == RED_MIN || red->op == RED_MAX) // the winner found in the same loop
          R->winner[red->out[0]] = lift_argext(&R->b, c, r);
      }
    if (clone && tapes) tape_values(R, n, clone, sw);
  }
}

// The reverse sweep and the epilogue (see sweep_block); returns the returned value.
static Val sweep_rev(Rev *R, const Block *body, bool top, Sweep *sw) {
  const Fn *pf = R->pf;
  Save *saves = sw->saves;
  int *save_at = sw->save_at, nsaves = sw->nsaves;
  if (top && sw->ret && ty_is_float(pf->ret) && R->varied[sw->ret])
    R->adj[sw->ret] = R->f->params[R->f->nparams - 1].val;
  int si = nsaves;
  Skips *stale = sw->skips && sw->skips->n ? sw->skips : NULL;
  for (int k = body->n - 1; k >= 0; k--) {
    R->b.loc = body->stmts[k]->loc;
    si -= save_at[k];
    // pre-k contents back; in the reverse order of the epilogue's swaps, which undo these
    // (two saved sections of one array may overlap: a loop's histogram and its map)
    for (int s = save_at[k] - 1; s >= 0; s--) emit_swap(R, &saves[si + s], false);
    if (stale) stale_begin(R, stale, k);
    rev_node(R, body->stmts[k]);
    if (stale) stale_end(R, stale);
    for (int s = 0; s < save_at[k]; s++) // (the state before an if that ran its branch again)
      if (saves[si + s].restore) emit_swap(R, &saves[si + s], false);
  }

  // epilogue: outputs as f leaves them (in a loop's body the next restore does it)
  for (int s = 0; top && s < nsaves; s++) emit_swap(R, &saves[s], true);
  for (int s = 0; s < nsaves; s++) free_save(R, &saves[s]);
  free_value_tapes(R, sw);
  for (int k = 0; k < body->n; k++) { // temporaries and their adjoints
    const Node *n = body->stmts[k];
    if (n->kind != IR_FREE) continue;
    scan_free(&R->b, P(n->u.copy.dst));
    if (R->abar[n->u.copy.dst]) scan_free(&R->b, R->abar[n->u.copy.dst]);
  }
  return sw->ret;
}

// The forward and reverse sweeps over the statements of a block: the function's body (top;
// returns the returned value), a sequential loop's body in one iteration of its reverse, or
// (R->par) the body of a parallel loop that has arrays of its own.
static Val sweep_block(Rev *R, const Block *body, bool top) {
  Sweep sw;
  sweep_fwd(R, body, top, &sw);
  return sweep_rev(R, body, top, &sw);
}

// (rev_map.c's entry: the two halves apart, the reduction operands' adjoints between them)
static struct Sweep *sweep_begin(Rev *R, const Block *body) {
  Sweep *sw = SCRATCH(Sweep, 1);
  sweep_fwd(R, body, false, sw);
  return sw;
}

static void sweep_end(Rev *R, const Block *body, struct Sweep *sw) {
  sweep_rev(R, body, false, sw);
}

// ---- the function ----

static Fn *vjp_signature(Rev *R) {
  const Fn *pf = R->pf;
  Fn *f = fn_new(R->a, arena_printf(R->a, "%s_vjp", pf->name), pf->loc);
  f->is_static = pf->is_static;
  f->ret = pf->ret;
  f->params = ARENA_ARRAY(R->a, Param, pf->nparams * 2 + 1);
  Val *bar = SCRATCH(Val, pf->nvals); // a struct parameter's adjoint struct (T *p_bar)
  for (int i = 0; i < pf->nparams; i++) {
    const Param *p = &pf->params[i];
    Param *q = &f->params[f->nparams++];
    *q = *p;
    q->val = R->pv[p->val] = ad_param_val(f, pf, p->val, p->type, p->name, R->pv, NULL, NULL);
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
    Val par = pf->vals[p->val].parent;
    Type *st = !par ? NULL : pf->vals[par].type->kind == TY_PTR ? pf->vals[par].type->elem
                                                                 : pf->vals[par].type;
    d->val = ad_param_val(f, pf, p->val, d->type, d->name, bar,
                          par ? ty_ptr(R->a, st, false) : NULL,
                          par ? arena_printf(R->a, "%s_bar", pf->vals[par].hint) : NULL);
    if (p->is_array) R->abar[p->val] = d->val;
  }
  if (ty_is_float(pf->ret)) {
    Param *d = &f->params[f->nparams++];
    *d = (Param){"ret_bar", pf->ret, 0, pf->loc, true, false, false, false};
    d->val = fn_val(f, pf->ret, "ret_bar");
  }
  return f;
}

Fn *ad_vjp(AdCtx *cx, const Fn *pf) {
  Arena *a = cx->a;
  Rev rv = {.a = a, .cx = cx, .pf = pf}, *R = &rv;
  R->general = cx->general;
  R->block = rev_block;
  R->sweep = sweep_block;
  R->sweep_begin = sweep_begin;
  R->sweep_end = sweep_end;
  R->priv = private_arrays(R);
  int nv = pf->nvals;
  R->pv = SCRATCH(Val, nv);
  R->adj = SCRATCH(Val, nv);
  R->abar = SCRATCH(Val, nv);
  R->def = SCRATCH(Node *, nv);
  R->mul_nz = SCRATCH(Val, nv);
  R->mul_p = SCRATCH(Val, nv);
  R->winner = SCRATCH(Val, nv);
  R->inj_memo = SCRATCH(InjMemo, MAX_INJ_MEMO);
  R->varied = activity_varied(R->cx->scratch, pf);
  rev_note_defs(R, pf->body, NULL);
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
  ret_globals(a, rn, pf->body, R->pv);
  b_push(&R->b, rn);

  return R->f;
}
