// ad/rev_map.c: the reverse rule of map, a parallel loop (papers/nested-parallel-ad.md §3-4:
// redundant execution, accumulators).
//
//   y = map (\i -> body) [lo, hi)
//   =>  map (\i -> body (re-executed, no writes); reverse(body)) [lo, hi)
//
// Adjoints of values defined outside the loop (free scalars, loop-invariant array elements)
// are summed by +-reductions of the reverse loop; adjoints of array elements read at the
// loop index are plain updates (reads_injective), at other indices accumulators: per-thread
// copies of a small interval (acc_shared), stencil temporaries (plan_offsets) or atomic
// updates.  A loop's reduce, scan and hist clauses get their own rules (rev_reduce.c,
// rev_scan.c, rev_hist.c), chosen by analysis/rules.c.
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rev.h"

// The index expressions of the reads of arr in b (nested blocks included) that vary in the
// loop being reversed, one per expression (index_same), into idx[0 .. *n); false past cap.
static bool read_indices(Rev *R, const Block *b, Val arr, Val *idx, int *n, int cap) {
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    if (s->kind == IR_READ && s->u.mem.arr == arr && !is_invariant(R, s->u.mem.idx)) {
      int k = 0;
      while (k < *n && !index_same(R->def, idx[k], s->u.mem.idx)) k++;
      if (k == *n) {
        if (*n == cap) return false;
        idx[(*n)++] = s->u.mem.idx;
      }
    }
    if (s->kind == IR_IF && (!read_indices(R, s->u.ifs.then, arr, idx, n, cap) ||
                             !read_indices(R, s->u.ifs.els, arr, idx, n, cap)))
      return false;
    if ((s->kind == IR_LOOP && !read_indices(R, s->u.loop.body, arr, idx, n, cap)) ||
        (s->kind == IR_PAR && !read_indices(R, s->u.par.body, arr, idx, n, cap)))
      return false; // (the reads of nested loops update the same adjoint)
  }
  return true;
}

// Do the reads of arr in the loop body, other than loop-invariant ones, touch in each
// iteration elements that no other iteration's reads touch?  Each index expression gives
// every iteration its own elements, and no two of them meet in different iterations
// (index_overlap: x[i]; x[2*i] and x[2*i + 1]; x[i] and x[i + n] over [0, n); x[3*i + k]
// with k in [0, 3)), or the user asserted injective(arr).  Then the adjoint updates of
// different iterations touch different elements, and need no atomics.
bool reads_injective(Rev *R, Val arr) {
  const Node *p = R->par;
  for (int k = 0; k < p->u.par.ninjective; k++)
    if (p->u.par.injective[k] == arr) return true; // the user's promise
  for (int k = 0; k < R->ninj_memo; k++)
    if (R->inj_memo[k].par == p && R->inj_memo[k].arr == arr) return R->inj_memo[k].plain;
  Val idx[MAX_OFFSETS];
  int n = 0;
  bool plain = read_indices(R, p->u.par.body, arr, idx, &n, MAX_OFFSETS);
  IndexLoop lp;
  if (plain && n)
    index_loop(&lp, R->cx->scratch, R->pf, R->def, R->in_par, p->u.par.body, p->u.par.idx,
               p->u.par.lo, p->u.par.hi);
  for (int a = 0; a < n && plain; a++)
    for (int b = a; b < n && plain; b++)
      plain = (a == b && index_row_major(R->def, R->in_par, p->u.par.body, idx[a], p->u.par.idx)) ||
              index_overlap(&lp, idx[a], idx[b], false).proof;
  if (R->ninj_memo < MAX_INJ_MEMO) R->inj_memo[R->ninj_memo++] = (InjMemo){p, arr, plain};
  return plain;
}

// Does the cast of a to v keep every value (to a signed 64-bit type, or the same type)?
static bool cast_keeps(Rev *R, Val v, Val a) {
  const Type *to = R->pf->vals[v].type, *from = R->pf->vals[a].type;
  return to == from || ((!strcmp(to->name, "long") || !strcmp(to->name, "long long")) &&
                        (!strcmp(from->name, "int") || !strcmp(from->name, "long") ||
                         !strcmp(from->name, "long long") || !strcmp(from->name, "short")));
}

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
  case IR_CAST: // only casts that keep every value
    return cast_keeps(R, v, d->u.cast.a) && index_interval(R, d->u.cast.a, lo, hi, budget);
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
  case IR_UNOP: case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
  case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_COLL: case IR_RETURN: return false;
  }
  UNREACHABLE();
}

// abar[idx] += g from inside the top-level reverse loop, as an update of a hist(+) clause
// of that loop where the elements idx reaches can be bounded; false: use an atomic.
bool acc_shared(Rev *R, Val arr, Val idx, Val g) {
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

// Primal index expression v as coef * i + rest, i the top-level loop's index: *has_i
// (coef is not 0 by its form; else coef is 0 and not built), *coef a long value, and the
// interval [lo, hi] of rest over the loop, all computed in the block before it.
static bool index_rel(Rev *R, Val v, bool *has_i, Val *coef, Val *lo, Val *hi, int *budget) {
  Builder hb = {R->f, R->top_host, R->b.loc};
  // (signed arithmetic: no index that wraps around)
  if (--*budget < 0 || !ty_is_int(R->pf->vals[v].type) || !ty_int_info(R->pf->vals[v].type).sign)
    return false;
  if (v == R->top_par->u.par.idx) {
    *has_i = true;
    *coef = b_const_i(&hb, &ty_long, 1);
    *lo = *hi = b_const_i(&hb, &ty_long, 0);
    return true;
  }
  int sub_budget = *budget;
  if (index_interval(R, v, lo, hi, &sub_budget)) { // (fails where v depends on i)
    *has_i = false;
    return true;
  }
  const Node *d = R->def[v];
  if (!d || !R->top_in[v]) return false;
  bool ha, hc;
  Val ca = 0, la, ua, cc = 0, lc, uc;
  switch (d->kind) {
  case IR_CAST: // (as index_interval: casts that keep every value)
    return cast_keeps(R, v, d->u.cast.a) && index_rel(R, d->u.cast.a, has_i, coef, lo, hi, budget);
  case IR_BINOP:
    if (d->u.bin.op != BIN_ADD && d->u.bin.op != BIN_SUB && d->u.bin.op != BIN_MUL) return false;
    if (!index_rel(R, d->u.bin.a, &ha, &ca, &la, &ua, budget) ||
        !index_rel(R, d->u.bin.b, &hc, &cc, &lc, &uc, budget))
      return false;
    *has_i = ha || hc;
    if (d->u.bin.op == BIN_ADD) {
      *coef = !hc ? ca : !ha ? cc : b_add(&hb, ca, cc);
      *lo = b_add(&hb, la, lc), *hi = b_add(&hb, ua, uc);
      return true;
    }
    if (d->u.bin.op == BIN_SUB) {
      *coef = !hc ? ca : !ha ? b_neg(&hb, cc) : b_sub(&hb, ca, cc);
      *lo = b_sub(&hb, la, uc), *hi = b_sub(&hb, ua, lc);
      return true;
    }
    // a product: one factor without i, and one value (not a range) over the loop
    if (ha == hc) return false;
    Val c = ha ? ca : cc, l = ha ? la : lc, u = ha ? ua : uc, kl = ha ? lc : la, ku = ha ? uc : ua;
    if (kl != ku) return false;
    *coef = b_mul(&hb, c, kl);
    Val p = b_mul(&hb, l, kl), q = b_mul(&hb, u, kl), neg = b_binop(&hb, BIN_LT, kl, b_const_i(&hb, &ty_long, 0));
    *lo = b_select(&hb, neg, q, p), *hi = b_select(&hb, neg, p, q);
    return true;
  case IR_CONST: case IR_UNOP: case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC:
  case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_COLL: case IR_RETURN: return false;
  }
  UNREACHABLE();
}

// abar[idx] += g from inside the top-level reverse loop, plain, where idx is coef * i + rest
// (i the loop's index, rest within [lo, hi] over the loop): iterations more than
// (hi - lo) / |coef| apart update different elements, and the loop runs in chunks at least
// that wide, the even ones in parallel, then the odd ones (emit_par.c).  Over all the
// updates of abar in the loop: [lo, hi] their union, and one chunk where their coefficients
// differ (finish_color).
bool acc_color(Rev *R, Val arr, Val idx, Val g) {
  if (!R->shared) return false;
  Val lo, hi, coef;
  bool has_i;
  int budget = 1000;
  if (!index_rel(R, idx, &has_i, &coef, &lo, &hi, &budget) || !has_i) return false;
  int c = 0;
  while (c < R->ncolored && R->colored[c].arr != R->abar[arr]) c++;
  if (c == (int)(sizeof R->colored / sizeof R->colored[0])) return false;
  Builder hb = {R->f, R->top_host, R->b.loc};
  if (c == R->ncolored) {
    R->colored[R->ncolored++] = (struct Colored){R->abar[arr], coef, 0, lo, hi};
  } else {
    struct Colored *x = &R->colored[c];
    Val eq = b_binop(&hb, BIN_EQ, coef, x->coef);
    x->same = x->same ? b_binop(&hb, BIN_LAND, x->same, eq) : eq;
    x->lo = b_select(&hb, b_binop(&hb, BIN_LT, lo, x->lo), lo, x->lo);
    x->hi = b_select(&hb, b_binop(&hb, BIN_GT, hi, x->hi), hi, x->hi);
  }
  b_acc(&R->b, R->abar[arr], P(idx), g, ACC_COLOR);
  return true;
}

// Does primal value v, defined in the top-level loop, depend on an array read (a gather:
// x[col[j]])?  Such updates reach each element a few times at most, and stream: atomic adds
// cost less than a window's traffic there (measured on bench/ legacy_csr).
static bool reads_memory(Rev *R, Val v, int *budget) {
  if (!R->top_in[v] || v == R->top_par->u.par.idx) return false;
  const Node *lp = R->loop_of[v];
  if (lp) // a nested loop's index: its bounds (CSR's k from rowptr[i] to rowptr[i + 1])
    return lp->kind == IR_LOOP ? reads_memory(R, lp->u.loop.lo, budget) || reads_memory(R, lp->u.loop.hi, budget)
                               : reads_memory(R, lp->u.par.lo, budget) || reads_memory(R, lp->u.par.hi, budget);
  const Node *d = R->def[v];
  if (!d) return false; // (a carried value: a counter)
  if (--*budget < 0) return true;
  switch (d->kind) {
  case IR_CONST: return false;
  case IR_UNOP: return reads_memory(R, d->u.un.a, budget);
  case IR_CAST: return reads_memory(R, d->u.cast.a, budget);
  case IR_BINOP: return reads_memory(R, d->u.bin.a, budget) || reads_memory(R, d->u.bin.b, budget);
  case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF:
  case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
  case IR_COLL: case IR_RETURN: return true;
  }
  UNREACHABLE();
}

// abar[idx] += g from inside the top-level reverse loop, where nothing bounds the elements
// idx reaches (a counter: GMM's packed triangles), and no array read decides it: into the
// thread's window of abar, a copy of the elements its updates reached so far, grown as they
// reach more and added to abar after the loop (emit_par.c; rt_host.h's adsoac_win_add_*).
// finish_color makes them atomic where the loop also reads, writes or plainly updates abar.
bool acc_window(Rev *R, Val arr, Val idx, Val g) {
  const Type *t = R->pf->vals[arr].type->elem;
  int budget = 200;
  if (!R->shared || !ty_is_float(t) || val_type(R->f, g) != t || reads_memory(R, idx, &budget))
    return false;
  int k = 0;
  while (k < R->nwins && R->wins[k] != R->abar[arr]) k++;
  if (k == (int)(sizeof R->wins / sizeof R->wins[0])) return false;
  if (k == R->nwins) R->wins[R->nwins++] = R->abar[arr];
  b_acc(&R->b, R->abar[arr], P(idx), g, ACC_WINDOW);
  return true;
}

// The accumulations into array a in block b: *color those of mode `mode`, *other any other
// access of a (an update of another mode but atomic, a read, a write).
static void color_uses(const Block *b, Val a, AccMode mode, bool *color, bool *other) {
  for (int i = 0; i < b->n; i++) {
    const Node *s = b->stmts[i];
    switch (s->kind) {
    case IR_ACC: case IR_READ: case IR_WRITE: case IR_UPDATE:
      if (s->u.mem.arr != a) break;
      if (s->kind == IR_ACC && s->u.mem.mode == mode) *color = true;
      else if (!(s->kind == IR_ACC && s->u.mem.mode == ACC_ATOMIC && mode == ACC_WINDOW)) *other = true;
      break;
    case IR_COPY: case IR_SORT: case IR_FREE:
      if (s->u.copy.dst == a || s->u.copy.src == a) *other = true;
      break;
    case IR_COLL:
      if (coll_writes(s) == a || coll_reads(s, a)) *other = true;
      break;
    case IR_IF:
      color_uses(s->u.ifs.then, a, mode, color, other), color_uses(s->u.ifs.els, a, mode, color, other);
      break;
    case IR_LOOP: color_uses(s->u.loop.body, a, mode, color, other); break;
    case IR_PAR: color_uses(s->u.par.body, a, mode, color, other); break;
    case IR_EXT: // (an array passed to a call: its accesses are not known)
      for (int k = 0; k < s->u.ext.nargs; k++) *other |= s->u.ext.args[k] == a;
      break;
    case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_ALLOC:
    case IR_RETURN: break;
    }
  }
}

static void color_to_atomic(Block *b, Val a, AccMode mode) {
  for (int i = 0; i < b->n; i++) {
    Node *s = b->stmts[i];
    if (s->kind == IR_ACC && s->u.mem.arr == a && s->u.mem.mode == mode) s->u.mem.mode = ACC_ATOMIC;
    if (s->kind == IR_IF) color_to_atomic(s->u.ifs.then, a, mode), color_to_atomic(s->u.ifs.els, a, mode);
    if (s->kind == IR_LOOP) color_to_atomic(s->u.loop.body, a, mode);
    if (s->kind == IR_PAR) color_to_atomic(s->u.par.body, a, mode);
  }
}

// The top-level reverse loop m's schedule for its ACC_COLOR updates: its width, the
// greatest of the arrays' (hi - lo) / |coef| + 1, every iteration where the coefficients of
// an array's updates differ or are 0.  An array the loop also accesses otherwise
// (atomically, plainly, a read) gets atomic updates instead.
static void finish_color(Rev *R, Node *m) {
  Builder hb = {R->f, R->top_host, m->loc};
  Val w = 0;
  for (int c = 0; c < R->ncolored; c++) {
    const struct Colored *x = &R->colored[c];
    bool color = false, other = false;
    color_uses(m->u.par.body, x->arr, ACC_COLOR, &color, &other);
    if (other) color_to_atomic(m->u.par.body, x->arr, ACC_COLOR);
    if (other || !color) continue;
    Val zero = b_const_i(&hb, &ty_long, 0), one = b_const_i(&hb, &ty_long, 1);
    Val ac = b_select(&hb, b_binop(&hb, BIN_LT, x->coef, zero), b_neg(&hb, x->coef), x->coef);
    Val ok = b_binop(&hb, BIN_GT, ac, zero);
    if (x->same) ok = b_binop(&hb, BIN_LAND, ok, x->same);
    Val span = b_add(&hb, b_binop(&hb, BIN_DIV, b_sub(&hb, x->hi, x->lo), b_select(&hb, ok, ac, one)), one);
    ok = b_binop(&hb, BIN_LAND, ok, b_binop(&hb, BIN_GT, span, zero)); // (no update at all: 0)
    Val wx = b_select(&hb, ok, span, b_const_i(&hb, &ty_long, 0x7fffffffffffffffLL));
    w = w ? b_select(&hb, b_binop(&hb, BIN_GT, wx, w), wx, w) : wx;
  }
  m->u.par.color = w;
  // the windows: after the colored updates that became atomic (those may share an array)
  m->u.par.wins = ARENA_ARRAY(R->a, Val, R->nwins + 1);
  m->u.par.nwins = 0;
  for (int k = 0; k < R->nwins; k++) {
    bool win = false, other = false;
    color_uses(m->u.par.body, R->wins[k], ACC_WINDOW, &win, &other);
    if (other) color_to_atomic(m->u.par.body, R->wins[k], ACC_WINDOW);
    else if (win) m->u.par.wins[m->u.par.nwins++] = R->wins[k];
  }
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
  case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF:
  case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
  case IR_COLL: case IR_RETURN: return false;
  }
  UNREACHABLE();
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
  case IR_CONST: case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
  case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_COLL: case IR_RETURN: break;
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
    if ((n->kind == IR_LOOP || n->kind == IR_PAR) && block_rereads(n->kind == IR_LOOP ?
        n->u.loop.body : n->u.par.body, arr, true))
      return false;
    if (n->kind == IR_IF && (block_rereads(n->u.ifs.then, arr, true) ||
                             block_rereads(n->u.ifs.els, arr, true)))
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
  // (the C target updates such an adjoint plainly, the loop run in two phases of chunks
  // (acc_color): one pass, no temporaries; on CUDA those updates would be atomic)
  if (R->depth > 1 || R->seq_depth || !R->cx->cuda) return;
  R->offs = SCRATCH(Offsets, R->pf->nparams + 1);
  for (int p = 0; p < R->pf->nparams; p++) {
    Val arr = R->pf->params[p].val;
    if (!R->pf->params[p].is_array || !R->abar[arr] || ir_writes(n->u.par.body, arr) ||
        reads_injective(R, arr))
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

// The state of the reversal of the enclosing parallel loop, put aside while a nested one is
// reversed (par_enter) and restored after it (par_leave).
typedef struct {
  const Node *par;
  unsigned char *in_par;
  Val *hoisted, *adj;
  InvAcc *inv_acc;
  int ninv_acc, cap_inv_acc, seq_depth;
  Offsets *offs;
  int noffs;
} ParScope;

static void par_enter(Rev *R, const Node *n, ParScope *out) {
  *out = (ParScope){R->par, R->in_par, R->hoisted, R->adj, R->inv_acc, R->ninv_acc,
                    R->cap_inv_acc, R->seq_depth, R->offs, R->noffs};
  int nv = R->pf->nvals;
  R->inv_acc = NULL;
  R->cap_inv_acc = 0;
  R->depth++;
  R->seq_depth = 0;
  R->adj = SCRATCH(Val, nv);
  R->in_par = SCRATCH(unsigned char, nv);
  R->hoisted = SCRATCH(Val, nv);
  R->par = n;
  note_def(R, (Node *)n, R->in_par);
  R->ninv_acc = 0;
}

static void par_leave(Rev *R, const ParScope *s) {
  R->par = s->par;
  R->in_par = s->in_par;
  R->hoisted = s->hoisted;
  R->inv_acc = s->inv_acc;
  R->ninv_acc = s->ninv_acc;
  R->cap_inv_acc = s->cap_inv_acc;
  R->seq_depth = s->seq_depth;
  R->depth--;
}

// A canonical scan (transform/scan.c) by its rule; false for any other loop.
static bool rev_scan_loop(Rev *R, const Node *n) {
  int nf = n->u.par.nscans == 1 ? n->u.par.scans[0].nf : 1;
  Val src[nf], dst[nf];
  if (n->u.par.nscans != 1 || !scan_canonical(n, src, dst)) return false;
  const Scan *s = &n->u.par.scans[0];
  bool varies = false; // a scan of constants from a constant (acc += 1.5): no adjoint flows
  for (int f = 0; f < s->nf; f++)
    varies |= R->varied[s->out[f]] || R->varied[s->excl[f]] || (dst[f] && R->abar[dst[f]]);
  if (!varies) return true;
  switch (scan_rule(s, R->general)) {
  case RULE_ADD: rev_scan(R, n, src, dst); break;
  case RULE_GENERAL: rev_scan_general(R, n, src, dst); break;
  case RULE_MUL: case RULE_MINMAX: case RULE_INVERTIBLE: UNREACHABLE(); // (scan_rule)
  }
  return true;
}

static WalkNext alloc_in(Node *n, void *ctx) {
  (void)ctx;
  return n->kind == IR_ALLOC ? WALK_STOP : n->kind == IR_PAR ? WALK_SKIP : WALK_INTO;
}

// Does the body of n allocate arrays (of each iteration: local arrays, privatized scratch)?
static bool has_own_arrays(const Node *n) {
  return ir_walk(n->u.par.body, &(Walker){.pre = alloc_in}) != NULL;
}

// ---- value tapes: the costly values of a loop body, kept by its forward run ----
// In one iteration of a host-level sequential loop's reverse, the sweep runs the loop's body
// forward (rev.c's sweep_fwd), then reverses it, statement by statement; the reverse loop of
// a parallel loop there evaluates its body again (clone_block below), transcendental calls
// included: 4 of the 5 of an LSTM cell, a third of its gradient's time.  The forward run's
// clone of the loop writes the values of those calls into arrays of one element per
// iteration, and the reverse loop reads them instead: the same values, since the reverse
// loop sees the arrays as the forward run saw them (the sweep restores what later statements
// overwrote).  Calls at the top of the body (not in an if or a nested loop), whose values
// vary; a tape no reverse reads goes with its writes (simplify_dead_arrays).

#define MAX_TAPED 16

typedef struct ValTape {
  const Node *par;     // the primal loop
  const void *owner;   // the sweep whose forward run ran it (rev.c's Sweep)
  Val lo;              // its lower bound in f, where the forward run ran it
  Val vals[MAX_TAPED]; // its body's values kept (primal)
  Val off[MAX_TAPED];  // where each one's elements start in the tape (long; 0: at 0)
  Val tape, len;       // the tape in f: per value, one element per iteration from lo
  int n;
  struct ValTape *next;
} ValTape;

static bool costly(MathFn fn) {
  switch (fn) {
  case M_EXP: case M_LOG: case M_LOG1P: case M_EXPM1: case M_SIN: case M_COS: case M_TAN:
  case M_ASIN: case M_ACOS: case M_ATAN: case M_ATAN2: case M_SINH: case M_COSH: case M_TANH:
  case M_POW: case M_ERF: case M_ERFC: case M_LGAMMA: case M_TGAMMA: case M_CBRT: case M_HYPOT:
  case M_EXP2: case M_LOG2: case M_LOG10: return true;
  case M_SQRT: case M_FABS: case M_FMIN: case M_FMAX: case M_FMA: case M_COPYSIGN: case M_FLOOR:
  case M_CEIL: case M_ROUND: case M_TRUNC: case M_DIGAMMA: case M_COUNT: return false;
  }
  return false;
}

// The iteration number (long, from 0) of index idx of a loop from lo.
static Val iter_of(Builder *b, Val idx, Val lo) {
  Val i = val_type(b->fn, idx) == &ty_long ? idx : b_cast(b, &ty_long, idx);
  const Node *d = b->fn->defs[lo];
  if (d && d->kind == IR_CONST && d->u.cst.i == 0) return i;
  return b_binop(b, BIN_SUB, i, val_type(b->fn, lo) == &ty_long ? lo : b_cast(b, &ty_long, lo));
}

// c, the forward run's clone of host-level parallel loop n (in the builder's block, perhaps
// followed by what lift_mul and lift_argext put there), keeps n's costly values.
void tape_values(Rev *R, const Node *n, Node *c, const void *owner) {
  if (R->par || n->u.par.nscans || n->u.par.nhists) return; // (hist_save's copies around c)
  const Block *body = n->u.par.body;
  ValTape *t = ARENA_NEW(R->a, ValTape);
  for (int k = 0; k < body->n && t->n < MAX_TAPED; k++) {
    const Node *s = body->stmts[k];
    if (s->kind == IR_CALL && costly(s->u.call.fn) && R->varied[s->out] &&
        ty_is_float(R->pf->vals[s->out].type))
      t->vals[t->n++] = s->out;
  }
  if (!t->n) return;
  Block *host = R->b.blk;
  int pos = host->n - 1;
  while (pos >= 0 && host->stmts[pos] != c) pos--;
  IR_ASSERT(pos >= 0);
  Type *ty = R->pf->vals[t->vals[0]].type;
  int start = host->n, n0 = t->n;
  t->n = 0; // (one tape, of the first value's type)
  for (int j = 0; j < n0; j++)
    if (R->pf->vals[t->vals[j]].type == ty) t->vals[t->n++] = t->vals[j];
  Val len = b_trip(&R->b, c->u.par.lo, c->u.par.hi);
  for (int j = 1; j < t->n; j++) t->off[j] = b_binop(&R->b, BIN_MUL, len, b_const_i(&R->b, &ty_long, j));
  t->len = t->off[t->n - 1] ? b_add(&R->b, t->off[t->n - 1], len) : len;
  Node *al = node_new(R->a, IR_ALLOC, R->b.loc); // (counted as saved state: adsoac.h)
  al->u.alloc.n = t->len;
  al->u.alloc.tape = true;
  al->out = t->tape = fn_val(R->f, ty_ptr(R->a, ty, false), "tape");
  b_push(&R->b, al);
  // the statements just pushed (the tape's length, its allocation) go before c; what was
  // pushed after c (reduce(*)'s combination of its zero count with the initial value:
  // lift_mul) stays after it
  int added = host->n - start;
  Node **moved = malloc(sizeof(Node *) * (size_t)added);
  if (!moved) diag_internal(__FILE__, __LINE__, "out of memory");
  memcpy(moved, &host->stmts[start], sizeof(Node *) * (size_t)added);
  memmove(&host->stmts[pos + added], &host->stmts[pos], sizeof(Node *) * (size_t)(start - pos));
  memcpy(&host->stmts[pos], moved, sizeof(Node *) * (size_t)added);
  free(moved);
  R->b.blk = c->u.par.body;
  Val i = iter_of(&R->b, c->u.par.idx, c->u.par.lo);
  for (int j = 0; j < t->n; j++) b_write(&R->b, t->tape, b_add(&R->b, i, t->off[j]), P(t->vals[j]));
  R->b.blk = host;
  t->par = n;
  t->owner = owner;
  t->lo = c->u.par.lo;
  t->next = R->vtapes;
  R->vtapes = t;
}

// The tapes of sweep owner, freed (its end; a nested loop's sweep may end after a later
// statement's tapes were made, and before the outer sweep's end frees them).
void free_value_tapes(Rev *R, const void *owner) {
  for (ValTape **p = &R->vtapes; *p;) {
    if ((*p)->owner != owner) {
      p = &(*p)->next;
      continue;
    }
    Node *fr = node_new(R->a, IR_FREE, R->b.loc);
    fr->u.copy.dst = (*p)->tape;
    fr->u.copy.n = (*p)->len;
    fr->u.copy.tape = true;
    b_push(&R->b, fr);
    *p = (*p)->next;
  }
}

static ValTape *tape_of(Rev *R, const Node *n) {
  for (ValTape *t = R->vtapes; t; t = t->next)
    if (t->par == n) return t;
  return NULL;
}

// Where t's values of the iteration of index idx are in its tape, at the builder's point.
static Val *tape_index(Rev *R, const ValTape *t, Val idx) {
  Val i = iter_of(&R->b, idx, t->lo), *at = SCRATCH(Val, t->n);
  for (int j = 0; j < t->n; j++) at[j] = b_add(&R->b, i, t->off[j]);
  return at;
}

// In body, the re-execution of t's loop in its reverse: its taped calls become reads of the
// tape at at[] (tape_index; their operands, now unused, go as dead code).
static void read_tapes(Rev *R, const ValTape *t, Block *body, const Val *at) {
  for (int j = 0; j < t->n; j++) {
    Val cv = P(t->vals[j]);
    for (int k = 0; k < body->n; k++) {
      Node *d = body->stmts[k];
      if (d->out != cv || d->kind != IR_CALL) continue;
      d->kind = IR_READ;
      d->u.mem.arr = t->tape;
      d->u.mem.idx = at[j];
      d->u.mem.v = 0;
      break;
    }
  }
}

// The reverse of parallel loop n: a scan by its rule, anything else by map's, its reduce and
// hist clauses by theirs (rev_reduce.c, rev_hist.c).
void rev_par(Rev *R, const Node *n) {
  if (rev_scan_loop(R, n)) return;
  check_reductions(R, n);
  hist_prepare(R, n);
  int nv = R->pf->nvals;
  ParScope outer;
  par_enter(R, n, &outer); // a nested loop: the enclosing one's state, restored at the end
  Val *host_adj = outer.adj;

  Block *host = R->b.blk;
  bool top = R->depth == 1;
  if (top) { // per-thread adjoints of shared elements (acc_shared)
    R->shared = SCRATCH(Shared, MAX_SHARED);
    R->nshared = 0;
    R->ncolored = 0;
    R->nwins = 0;
    R->top_host = host;
    R->top_par = n;
    R->top_in = R->in_par;
    R->loop_of = SCRATCH(const Node *, nv);
    note_loops(n->u.par.body, R->loop_of);
  }
  RedRev rr;
  red_prepare(R, n, host_adj, &rr); // the passes of the special rules before the reverse loop
  Node *m = node_new(R->a, IR_PAR, n->loc);
  m->u.par.lo = P(n->u.par.lo);
  m->u.par.hi = P(n->u.par.hi);
  red_range(R, n, host_adj, &rr, m); // one iteration holds the whole adjoint: just it
  m->u.par.pragma = n->u.par.pragma;
  m->u.par.reds = ARENA_ARRAY(R->a, Red, 1);
  plan_offsets(R, n);
  int wh = top ? hist_winners_only(R, n) : -1;
  Node *won = NULL;
  if (wh < 0) {
    m->u.par.idx = clone_val(R->f, R->pf, n->u.par.idx, R->pv);
    m->u.par.body = R->b.blk = block_new(R->a);
  } else { // over the bins: where one of the iterations won, that iteration's reverse
    Builder *b = &R->b;
    const Hist *hc = &n->u.par.hists[wh];
    m->u.par.lo = b_const_i(b, &ty_long, 0);
    m->u.par.hi = b_cast(b, &ty_long, P(hc->len));
    m->u.par.idx = fn_val(R->f, &ty_long, "bin");
    m->u.par.body = R->b.blk = block_new(R->a);
    Val w = b_read(b, hist_aux(R, n)->win[wh], m->u.par.idx);
    won = node_new(R->a, IR_IF, n->loc);
    won->u.ifs.cond = b_binop(b, BIN_LAND, b_binop(b, BIN_NE, w, b_const_i(b, &ty_long, -1)),
                              b_binop(b, BIN_NE, w, b_const_i(b, &ty_long, LLONG_MAX)));
    won->u.ifs.then = block_new(R->a);
    won->u.ifs.els = block_new(R->a);
    b_push(b, won);
    R->b.blk = won->u.ifs.then;
    R->pv[n->u.par.idx] = b_cast(b, R->pf->vals[n->u.par.idx].type,
                                 b_add(b, b_cast(b, &ty_long, P(n->u.par.lo)), w));
    diag_remark(n->loc, "the reverse of %s runs over the bins, the iteration of each bin's winner "
                "alone (the others' adjoints are zero)", n->u.par.pragma);
  }
  // the iteration's arrays written again, checkpointed, and the sequential loops' carried
  // values on tapes (rev.c, rev_loop.c)
  if (has_own_arrays(n) || block_carries_state(R, n->u.par.body)) {
    struct Sweep *sw = R->sweep_begin(R, n->u.par.body);
    red_operands(R, n, host_adj, &rr, m->u.par.idx); // the contributions' adjoints
    R->sweep_end(R, n->u.par.body, sw);
  } else {
    ValTape *vt = top && wh < 0 ? tape_of(R, n) : NULL; // the forward run's values
    Val *at = vt ? tape_index(R, vt, m->u.par.idx) : NULL;
    clone_block(&R->b, R->pf, n->u.par.body, R->pv, true); // re-execution, no writes
    if (vt) read_tapes(R, vt, m->u.par.body, at);
    red_operands(R, n, host_adj, &rr, m->u.par.idx); // the contributions' adjoints
    R->block(R, n->u.par.body);
  }

  if (won) { // the winner's adjoints of values from outside the loop leave the if (else 0)
    int no = 0;
    for (int v = 1; v < nv; v++) no += R->adj[v] && !R->in_par[v];
    won->u.ifs.outs = ARENA_ARRAY(R->a, Val, no + R->ninv_acc + 1);
    R->b.blk = won->u.ifs.els;
    for (int v = 1; v < nv; v++)
      if (R->adj[v] && !R->in_par[v]) {
        Type *t = R->pf->vals[v].type;
        block_yield(R->a, won->u.ifs.then, R->adj[v]);
        block_yield(R->a, won->u.ifs.els, zero_of(R, t));
        R->adj[v] = won->u.ifs.outs[won->u.ifs.nouts++] = fn_val(R->f, t, NULL);
      }
    for (int i = 0; i < R->ninv_acc; i++) {
      Type *t = val_type(R->f, R->inv_acc[i].sum);
      block_yield(R->a, won->u.ifs.then, R->inv_acc[i].sum);
      block_yield(R->a, won->u.ifs.els, zero_of(R, t));
      R->inv_acc[i].sum = won->u.ifs.outs[won->u.ifs.nouts++] = fn_val(R->f, t, NULL);
    }
    R->b.blk = m->u.par.body;
  }
  // adjoints of values from outside the loop: summed over the iterations
  Val *total = SCRATCH(Val, nv);
  for (int v = 1; v < nv; v++)
    if (R->adj[v] && !R->in_par[v]) total[v] = add_sum_reduction(R, m, R->adj[v], R->pf->vals[v].type, host);
  Val *inv_total = SCRATCH(Val, R->ninv_acc + 1);
  for (int i = 0; i < R->ninv_acc; i++)
    inv_total[i] = add_sum_reduction(R, m, R->inv_acc[i].sum, val_type(R->f, R->inv_acc[i].sum), host);
  R->b.blk = host;
  if (top) {
    finish_shared(R, m);
    for (int c = 0; wh >= 0 && c < R->ncolored; c++) // (bins far apart: winners perhaps not)
      color_to_atomic(m->u.par.body, R->colored[c].arr, ACC_COLOR);
    if (wh >= 0) R->ncolored = 0;
    finish_color(R, m);
    R->shared = NULL;
  }
  b_push(&R->b, m);
  finish_offsets(R, n);
  R->offs = outer.offs;
  R->noffs = outer.noffs;
  if (R->ninv_acc) { // only where the loop ran: with no iteration the element may not exist
    Node *ran = node_new(R->a, IR_IF, n->loc);
    ran->u.ifs.cond = wh < 0 ? b_binop(&R->b, BIN_LT, m->u.par.lo, m->u.par.hi)
                             : b_binop(&R->b, BIN_LT, P(n->u.par.lo), P(n->u.par.hi));
    ran->u.ifs.then = block_new(R->a);
    ran->u.ifs.els = block_new(R->a);
    Block *around = R->b.blk;
    R->b.blk = ran->u.ifs.then;
    for (int i = 0; i < R->ninv_acc; i++) // in a nested loop, other iterations of the outer run too
      b_acc(&R->b, R->abar[R->inv_acc[i].arr], hoist(R, R->inv_acc[i].idx), inv_total[i],
            R->depth > 1 ? ACC_ATOMIC : ACC_PLAIN);
    R->b.blk = around;
    b_push(&R->b, ran);
  }

  R->adj = host_adj;
  for (int v = 1; v < nv; v++)
    if (total[v]) adj_add(R, v, total[v]);
  red_inits(R, n, host_adj, &rr); // the initial value is one more operand
  hist_finish(R, n);
  par_leave(R, &outer);
}

// What this version differentiates; everything else is refused with the construct named.
void check_reductions(Rev *R, const Node *n) {
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
    if (reduce_rule(red, false) == RULE_GENERAL) // (a scan at the top level: transform/scan.c)
      diag_error(n->loc, "a declared operator without inverse(fn), or not commutative, is "
                 "differentiated at the top level of the function (as a scan)",
                 "reverse mode of reduce(%s: ...) inside another loop or an if is not supported "
                 "yet", red->user_fn);
    if (red->nf != 1 && red->op != RED_USER)
      diag_error(n->loc, NULL, "reverse mode of reduce(%s: ...) on structs is not supported yet",
                 red->user_fn ? red->user_fn : redop_name(red->op));
  }
}
