// emit/emit_par.c: parallel loops (an OpenMP loop, or a CUDA kernel and its launch),
// adjoint accumulation, and temporary arrays, for both targets.
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "emit_internal.h"

// A temporary ("T *name") that the function's error path frees.
void add_temp(Emit *e, const char *decl) {
  if (e->ntemps == e->captemps) {
    int cap = e->captemps ? 2 * e->captemps : 64;
    const char **t = ARENA_ARRAY(e->a, const char *, cap);
    if (e->ntemps) memcpy(t, e->temps, sizeof *t * (size_t)e->ntemps);
    e->temps = t;
    e->captemps = cap;
  }
  e->temps[e->ntemps++] = decl;
}

// The partial result of reduction r of the loop being emitted (nested loops: their own names).
static const char *pname(Emit *e, int r) {
  return e->par_depth ? arena_printf(e->a, "adsoac_r%d_%d", e->par_depth, r)
                      : arena_printf(e->a, "adsoac_r%d", r);
}

// ---- an iteration's own arrays (local arrays, privatized scratch, reverse mode's tapes) ----

// Is the allocation n an array on the stack (a constant size, small), or on the heap?
bool alloc_on_stack(Emit *e, const Node *n) {
  const Node *d = e->def[n->u.alloc.n];
  return !e->host && d && d->kind == IR_CONST && d->u.cst.i <= 1024 && !n->u.alloc.tape;
}

typedef struct {
  Emit *e;
  Val *heap;
  int n;
} HeapAllocs;

static WalkNext heap_alloc(Node *n, void *ctx) {
  HeapAllocs *h = ctx;
  if (n->kind == IR_ALLOC && !alloc_on_stack(h->e, n)) h->heap[h->n++] = n->out;
  return WALK_INTO;
}

// Does loop n's body allocate arrays on the heap?
static bool body_allocates(Emit *e, const Node *n) {
  HeapAllocs h = {e, ARENA_ARRAY(e->a, Val, e->f->nvals), 0};
  ir_walk(n->u.par.body, &(Walker){.pre = heap_alloc, .ctx = &h});
  return h.n > 0;
}

static void emit_body(Emit *e, const Node *n) {
  bool host = e->host;
  int ifd = e->if_depth;
  const Node *par = e->par, *hist_par = e->hist_par;
  e->par = n;
  if (n->u.par.nhists || !e->par_depth) e->hist_par = n;
  e->host = false;
  e->if_depth = 0;
  // the iteration's heap arrays: NULL until allocated, freed at the end also where an
  // allocation failed and the rest of the iteration was skipped
  HeapAllocs h = {e, NULL, 0};
  int skip = e->skip;
  if (!e->skip) {
    h.heap = ARENA_ARRAY(e->a, Val, e->f->nvals);
    ir_walk(n->u.par.body, &(Walker){.pre = heap_alloc, .ctx = &h});
    for (int k = 0; k < h.n; k++)
      line(e, "%s%s = NULL;", tname(e, e->f->vals[h.heap[k]].type), ref(e, h.heap[k]));
    if (h.n) {
      e->skip = ++e->nskips;
      e->uses_priv = true;
      line(e, "{");
      e->depth++;
    }
  }
  declare_hoisted(e, n->u.par.body, false);
  e->block(e, n->u.par.body);
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    const char *pr = pname(e, r);
    const Val *x = n->u.par.body->yields + red->slot;
    if (red->argext && !n->u.par.nscans && !n->u.par.nhists && !n->u.par.color) // (in index order)
      line(e, "if (%s %s %s.f0) %s = %s; // (a tie: the earlier index kept)", ref(e, x[0]),
           red->argext > 0 ? ">" : "<", pr, pr, tuple(e, red, x));
    else
      line(e, "%s = %s;", pr, combine(e, red, pr, tuple(e, red, x)));
  }
  if (h.n) {
    e->depth--;
    line(e, "}");
    line(e, "adsoac_skip_%d:;", e->skip);
    for (int k = 0; k < h.n; k++)
      line(e, e->stk ? "adsoac_stk_free(&adsoac_stk, %s);" : "free(%s);", ref(e, h.heap[k]));
    e->skip = skip;
  }
  e->par = par;
  e->hist_par = hist_par;
  e->host = host;
  e->if_depth = ifd;
}

// ---- histograms ----

// A hist clause as a reduction clause, for the operator helpers (elem: a value of the
// histogram's element type).
static Red hist_red(const Hist *h, const Val *elem) {
  return (Red){.op = h->op, .nf = 1, .out = (Val *)elem, .lam = h->lam, .user_fn = h->user_fn,
               .var = h->var, .commutative = true};
}

static void emit_hist_ops(Emit *e, const Node *n) {
  for (int h = 0; h < n->u.par.nhists; h++) {
    const Hist *hc = &n->u.par.hists[h];
    if (hc->op != RED_USER) continue;
    Red r = hist_red(hc, &hc->lam->pa[0]);
    emit_user_op(e, n, &r);
  }
}

// C: does loop n keep per-thread copies of its hist clause h (when the section is small;
// builtin operators, whose neutral element is known)?
static const char *private_neutral(Emit *e, const Hist *hc) {
  const Type *t = e->f->vals[hc->arr].type->elem;
  bool f = ty_is_float(t), f32 = t->kind == TY_FLOAT;
  if (!f && strcmp(t->name, "long") && strcmp(t->name, "long long")) return NULL; // 64-bit only
  switch (hc->op) {
  case RED_ADD: return f ? zero(e, t) : "0";
  case RED_MUL: return f ? (f32 ? "1.0f" : "1.0") : "1";
  case RED_MIN: return f ? arena_printf(e->a, "(%s)INFINITY", tname(e, t)) : "LLONG_MAX";
  case RED_MAX: return f ? arena_printf(e->a, "-(%s)INFINITY", tname(e, t)) : "LLONG_MIN";
  case RED_USER: return NULL;
  }
  UNREACHABLE();
}

static bool private_hist(Emit *e, const Node *n, int h) {
  return n && n == e->private_par && private_neutral(e, &n->u.par.hists[h]);
}

static void emit_atomic_c(Emit *e, const Hist *h, const Red *r, const char *a, const char *v,
                          const char *ty);

// C: min/max that records each bin's winner (Hist.win, ad/hist.c hist_win_alloc): the update
// moves the bin, and its key goes to win, where it beats the bin's value, or equals it with an
// earlier key (-1, the initial contents, the earliest): whatever order the threads' updates
// and copies arrive in, the winner is the earliest update that attains the final value, as
// hist_winners finds it.  A thread's copy has its own keys (LLONG_MAX: none); where the copy is
// missing, the update and the copies' merges go through the one critical section.  win_take:
// value v with key takes bin a (its key in w) on that rule.
static void win_take(Emit *e, const char *beats, const char *v, const char *a, const char *key,
                     const char *w) {
  line(e, "if (%s %s %s || (%s == %s && %s < %s)) {", v, beats, a, v, a, key, w);
  line(e, "  %s = %s;", a, v);
  line(e, "  %s = %s;", w, key);
  line(e, "}");
}

static void emit_update_win(Emit *e, const Node *n, const Hist *h, const char *a, const char *v) {
  const Node *p = e->hist_par;
  const char *beats = h->op == RED_MAX ? ">" : "<";
  const char *lo = ref(e, h->lo);
  const char *w = elem_at(e, h->win, arena_printf(e->a, "adsoac_j - (long long)%s", lo));
  line(e, "long adsoac_key = ((long)%s - (long)%s) * %lldL + %d; // the update's key", ref(e, p->u.par.idx),
       ref(e, p->u.par.lo), h->nsites, n->u.mem.site);
  if (e->no_team) { // (in order: a later update never wins a tie)
    line(e, "if (%s %s %s) {", v, beats, a);
    line(e, "  %s = %s;", a, v);
    line(e, "  %s = adsoac_key;", w);
    line(e, "}");
    return;
  }
  bool priv = private_hist(e, p, n->u.mem.hist);
  if (priv) {
    const char *ph = arena_printf(e->a, "adsoac_ph%d", n->u.mem.hist);
    const char *at = arena_printf(e->a, "%s[adsoac_j - (long long)%s]", ph, lo);
    const char *wt = arena_printf(e->a, "adsoac_pw%d[adsoac_j - (long long)%s]", n->u.mem.hist, lo);
    line(e, "if (%s) {", ph);
    e->depth++;
    win_take(e, beats, v, at, "adsoac_key", wt);
    e->depth--;
    line(e, "} else {");
    e->depth++;
  }
  buf_puts(e->out, "#pragma omp critical\n");
  win_take(e, beats, v, a, "adsoac_key", w);
  if (priv) {
    e->depth--;
    line(e, "}");
  }
}

// h[k] OP= v where lo <= k < lo + len (language.md §3: other bins are skipped), atomically:
// the operator's atomic where there is one (C: omp atomic for + and *; CUDA: atomicAdd),
// else a compare-and-swap loop.
void emit_update(Emit *e, const Node *n) {
  const Hist *h = &e->hist_par->u.par.hists[n->u.mem.hist];
  Red r = hist_red(h, &n->u.mem.v);
  const Type *t = e->f->vals[n->u.mem.v].type;
  const char *a = elem_at(e, n->u.mem.arr, "adsoac_j"), *v = ref(e, n->u.mem.v), *ty = tname(e, t);
  line(e, "{");
  e->depth++;
  line(e, "long long adsoac_j = (long long)%s;", ref(e, n->u.mem.idx));
  line(e, "if (adsoac_j >= (long long)%s && adsoac_j < (long long)%s + (long long)%s) {",
       ref(e, h->lo), ref(e, h->lo), ref(e, h->len));
  e->depth++;
  if (h->win) {
    IR_ASSERT(e->opt->target == TARGET_C && (h->op == RED_MIN || h->op == RED_MAX));
    emit_update_win(e, n, h, a, v);
  } else if (e->opt->target == TARGET_CUDA) {
    if (e->shm_par && e->shm_par == e->hist_par && e->shm[n->u.mem.hist]) { // (the block's copy: shared_hist)
      line(e, "if (adsoac_sh%d)", n->u.mem.hist);
      line(e, "  atomicAdd(&adsoac_sh%d[adsoac_j - (long long)%s], %s);", n->u.mem.hist, ref(e, h->lo), v);
      line(e, "else");
      line(e, "  atomicAdd(&%s, %s);", a, v);
    } else if (h->op == RED_ADD && (ty_is_float(t) || !strcmp(t->name, "int")))
      line(e, "atomicAdd(&%s, %s);", a, v);
    else
      line(e, "adsoac_atomic_op(&%s, %s, %s());", a, v, cub_op(e, &r));
  } else if (e->no_team) { // (a loop run in order on one thread: --deterministic)
    line(e, "%s = %s;", a, combine(e, &r, a, v));
  } else if (private_hist(e, e->hist_par, n->u.mem.hist)) { // (emit_par_c)
    const char *ph = arena_printf(e->a, "adsoac_ph%d", n->u.mem.hist);
    const char *at = arena_printf(e->a, "%s[adsoac_j - (long long)%s]", ph, ref(e, h->lo));
    line(e, "if (%s) {", ph);
    line(e, "  %s = %s;", at, combine(e, &r, at, v));
    line(e, "} else {");
    e->depth++;
    emit_atomic_c(e, h, &r, a, v, ty);
    e->depth--;
    line(e, "}");
  } else {
    emit_atomic_c(e, h, &r, a, v, ty);
  }
  e->depth--;
  line(e, "}");
  e->depth--;
  line(e, "}");
}

// C: a OP= v atomically (a: the element, an lvalue).
static void emit_atomic_c(Emit *e, const Hist *h, const Red *r, const char *a, const char *v,
                          const char *ty) {
  if (h->op == RED_ADD || h->op == RED_MUL) {
    buf_puts(e->out, "#pragma omp atomic\n");
    line(e, "%s %s= %s;", a, h->op == RED_ADD ? "+" : "*", v);
  } else {
    line(e, "%s adsoac_o, adsoac_w;", ty);
    line(e, "__atomic_load(&%s, &adsoac_o, __ATOMIC_RELAXED);", a);
    line(e, "do adsoac_w = %s;", combine(e, r, "adsoac_o", v));
    line(e, "while (!__atomic_compare_exchange(&%s, &adsoac_o, &adsoac_w, 0, "
         "__ATOMIC_RELAXED, __ATOMIC_RELAXED));", a);
  }
}

// ---- C11 / OpenMP ----

// A thread's copy of hist clause h of loop n, at the operator's neutral element, where the
// section has at most ADSOAC_PRIVATE_BINS bins (else NULL: the updates are atomic).
static void private_open(Emit *e, const Node *n, int h) {
  const Hist *hc = &n->u.par.hists[h];
  const Type *t = e->f->vals[hc->arr].type->elem;
  const char *ph = arena_printf(e->a, "adsoac_ph%d", h), *len = ref(e, hc->len);
  line(e, "%s *%s = NULL;", tname(e, t), ph);
  line(e, "if ((long long)%s > 0 && (long long)%s <= ADSOAC_PRIVATE_BINS &&", len, len);
  line(e, "    (%s = (%s *)malloc((size_t)%s * sizeof *%s)))", ph, tname(e, t), len, ph);
  const char *ne = private_neutral(e, hc);
  line(e, "  for (long long adsoac_b = 0; adsoac_b < (long long)%s; adsoac_b++) %s[adsoac_b] = %s;", len, ph, ne);
  if (hc->win) { // (its winners' keys: both copies, or neither)
    const char *pw = arena_printf(e->a, "adsoac_pw%d", h);
    line(e, "long *%s = %s ? (long *)malloc((size_t)%s * sizeof *%s) : NULL;", pw, ph, len, pw);
    line(e, "if (%s)", pw);
    line(e, "  for (long long adsoac_b = 0; adsoac_b < (long long)%s; adsoac_b++) %s[adsoac_b] = LLONG_MAX;", len, pw);
    line(e, "else {");
    line(e, "  free(%s);", ph);
    line(e, "  %s = NULL;", ph);
    line(e, "}");
  }
}

// A thread's copy merged into the histogram (inside the loop's critical section),
// atomically: a thread whose copy could not be allocated, or an update outside any copy, may
// still be adding atomically.  Only the bins the copy moved from the neutral element: the
// section of an adjoint's accumulator (rev_map.c acc_shared) is the interval its index
// expressions span, which under a branch not taken may lie outside the array (st[(l-1)*H+j]
// read only where l > 0).
static void private_close(Emit *e, const Node *n, int h) {
  const Hist *hc = &n->u.par.hists[h];
  const char *ph = arena_printf(e->a, "adsoac_ph%d", h), *a = elem_at(e, hc->arr, "adsoac_j");
  Red r = hist_red(hc, &hc->arr);
  line(e, "if (%s) {", ph);
  line(e, "  for (long long adsoac_b = 0; adsoac_b < (long long)%s; adsoac_b++) {", ref(e, hc->len));
  e->depth += 2;
  line(e, "if (%s[adsoac_b] == %s) continue;", ph, private_neutral(e, hc));
  line(e, "long long adsoac_j = (long long)%s + adsoac_b;", ref(e, hc->lo));
  if (hc->win) { // (in the critical section, which every update without a copy takes too)
    const char *at = arena_printf(e->a, "%s[adsoac_b]", ph), *wt = arena_printf(e->a, "adsoac_pw%d[adsoac_b]", h);
    win_take(e, hc->op == RED_MAX ? ">" : "<", at, a, wt, elem_at(e, hc->win, "adsoac_b"));
  } else {
    emit_atomic_c(e, hc, &r, a, arena_printf(e->a, "%s[adsoac_b]", ph),
                  tname(e, e->f->vals[hc->arr].type->elem));
  }
  e->depth -= 2;
  line(e, "  }");
  line(e, "  free(%s);", ph);
  if (hc->win) line(e, "  free(adsoac_pw%d);", h);
  line(e, "}");
}

// The OpenMP loop's clauses kept as hints (IR_PAR.hints) for the primal f's pragma: " CLAUSE"
// each, those of the loop (schedule) or of the team (the others; a scan's passes: not if,
// they have their own), the parameters they name written by their names here.
static const char *omp_hints(Emit *e, const Node *n, bool loop, bool scan) {
  Buf b = {.arena = e->a};
  for (int h = 0; e->primal && h < n->u.par.nhints; h++) {
    const char *t = n->u.par.hints[h];
    if (loop != !strncmp(t, "schedule(", 9) || (scan && !strncmp(t, "if(", 3))) continue;
    buf_puts(&b, " ");
    for (const char *p = t; *p;) {
      size_t len = isalpha((unsigned char)*p) || *p == '_'
                       ? strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
                       : 0;
      int k = 0;
      while (len && k < n->u.par.nhint_vals &&
             (strlen(n->u.par.hint_names[k]) != len || strncmp(n->u.par.hint_names[k], p, len)))
        k++;
      if (len && k < n->u.par.nhint_vals)
        buf_puts(&b, ref(e, n->u.par.hint_vals[k]));
      else
        buf_printf(&b, "%.*s", (int)(len ? len : 1), p);
      p += len ? len : 1;
    }
  }
  return b.data ? b.data : "";
}

static void scan_open(Emit *e, const ScanGroup *g);
static const char *scan_hints(Emit *e, const ScanGroup *g);
static void scan_chunk(Emit *e, const ScanGroup *g, bool totals);
static bool scan_read(Emit *e, const Scan *s);
static bool is_zero(Emit *e, Val v);

static WalkNext is_loop(Node *n, void *ctx) {
  (void)ctx;
  return n->kind == IR_LOOP || n->kind == IR_PAR ? WALK_STOP : WALK_INTO;
}

// Does loop n's OpenMP loop (the source's) carry a clause starting with c?
static bool has_hint(const Node *n, const char *c) {
  for (int h = 0; h < n->u.par.nhints; h++)
    if (!strncmp(n->u.par.hints[h], c, strlen(c))) return true;
  return false;
}

typedef struct {
  const Emit *e;
  bool colored; // the loop runs in two phases of chunks
  bool hists; // histogram updates count too
} AtomicWalk;

// An adjoint update of a float or double that may be atomic (or go to a window); with
// w->hists, also a histogram update of one (a loop's inner histogram: atomic where the array
// is shared).
static WalkNext atomic_update(Node *n, void *ctx) {
  const AtomicWalk *w = ctx;
  if (n->kind == IR_UPDATE && w->hists) {
    TypeKind k = w->e->f->vals[n->u.mem.arr].type->elem->kind;
    return k == TY_DOUBLE || k == TY_FLOAT ? WALK_STOP : WALK_INTO;
  }
  if (n->kind != IR_ACC) return WALK_INTO;
  TypeKind k = w->e->f->vals[n->u.mem.arr].type->elem->kind;
  bool atomic = n->u.mem.mode == ACC_ATOMIC || n->u.mem.mode == ACC_WINDOW ||
                (n->u.mem.mode == ACC_COLOR && !w->colored);
  return atomic && (k == TY_DOUBLE || k == TY_FLOAT) ? WALK_STOP : WALK_INTO;
}

// When loop n opens a team: where its body runs no loop of its own (short iterations) and
// the source's OpenMP loop has no if of its own, from ADSOAC_PAR_MIN iterations and more than
// one thread (rt_host.h adsoac_team; a short loop in a time loop runs on the calling thread,
// without the cost of a team of one); NULL: always.
static const char *team_cond(Emit *e, const Node *n) {
  if (ir_walk(n->u.par.body, &(Walker){.pre = is_loop})) return NULL;
  if (has_hint(n, "if(")) return NULL;
  if (!ty_is_int(e->f->vals[n->u.par.lo].type) || !ty_is_int(e->f->vals[n->u.par.hi].type))
    return NULL;
  // (inside the loop's guard lo < hi: hi - lo in unsigned arithmetic is the trip count, at
  // the ends of every integer type too)
  if (is_zero(e, n->u.par.lo))
    return arena_printf(e->a, "adsoac_team((unsigned long long)%s)", ref(e, n->u.par.hi));
  return arena_printf(e->a, "adsoac_team((unsigned long long)%s - (unsigned long long)%s)",
                      ref(e, n->u.par.hi), ref(e, n->u.par.lo));
}

// ---- --deterministic: no order of combination that the threads decide ----

// A loop whose threads would meet at shared elements or at a histogram (atomics, windows,
// copies per thread; a histogram of a loop inside its iterations) or, on the C target,
// combine partials per thread (declared operators, two-phase loops, scratch stacks): run in
// iteration order.  (The CUDA target's reductions have a shape that the trip count alone
// sets: adsoac_grid, the blocks' trees.)
static bool det_in_order(Emit *e, const Node *n) {
  if (n->u.par.nhists || n->u.par.nwins) return true;
  bool cuda = e->opt->target == TARGET_CUDA;
  bool colored = !cuda && n->u.par.color && ty_is_int(e->f->vals[n->u.par.idx].type);
  if (ir_walk(n->u.par.body, &(Walker){.pre = atomic_update, .ctx = &(AtomicWalk){e, colored, true}}))
    return true;
  return !cuda && n->u.par.nreds && (has_user_op(n) || colored || body_allocates(e, n));
}

// The iterations on the calling thread, in order: its updates plain, its histograms updated in
// place, its reductions a fold from the first iteration.
static void emit_par_c_in_order(Emit *e, const Node *n) {
  pragma_comment(e, n);
  line(e, "{ // --deterministic: in order, on this thread (the threads would combine in an order of their own)");
  e->depth++;
  const Node *outer_private = e->private_par, *outer_win = e->win_par;
  bool outer_stk = e->stk, outer_solo = e->solo, outer_no_team = e->no_team;
  e->private_par = e->win_par = NULL;
  e->stk = e->solo = false;
  e->no_team = true;
  for (int r = 0; r < n->u.par.nreds; r++)
    line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]), pname(e, r), neutral(e, &n->u.par.reds[r]));
  if (n->u.par.color) line(e, "(void)%s; // (the width of two-phase chunks: none here)", ref(e, n->u.par.color));
  const char *i = ref(e, n->u.par.idx);
  const Type *it = e->f->vals[n->u.par.idx].type;
  line(e, "for (%s %s = %s; %s < %s; %s++) {", tname(e, it), i, ref(e, n->u.par.lo), i,
       ref(e, n->u.par.hi), i);
  e->depth++;
  emit_body(e, n);
  e->depth--;
  line(e, "}");
  for (int r = 0; r < n->u.par.nreds; r++) finish_red(e, &n->u.par.reds[r], pname(e, r));
  e->private_par = outer_private, e->win_par = outer_win;
  e->stk = outer_stk, e->solo = outer_solo, e->no_team = outer_no_team;
  e->depth--;
  line(e, "}");
}

// A reduction loop in ADSOAC_DET_BLOCKS blocks (their bounds set by the trip count alone, not
// by the threads), in parallel, each block's partials kept and folded in block order.
static void emit_par_c_blocked(Emit *e, const Node *n) {
  pragma_comment(e, n);
  line(e, "{ // --deterministic: ADSOAC_DET_BLOCKS blocks of the iterations, their partials combined in order");
  e->depth++;
  for (int r = 0; r < n->u.par.nreds; r++)
    line(e, "%s adsoac_t%d = %s;", red_ctype(e, &n->u.par.reds[r]), r, neutral(e, &n->u.par.reds[r]));
  line(e, "if (%s < %s) {", ref(e, n->u.par.lo), ref(e, n->u.par.hi));
  e->depth++;
  line(e, "unsigned long long adsoac_trip = (unsigned long long)%s - (unsigned long long)%s;",
       ref(e, n->u.par.hi), ref(e, n->u.par.lo));
  for (int r = 0; r < n->u.par.nreds; r++)
    line(e, "%s adsoac_pp%d[ADSOAC_DET_BLOCKS];", red_ctype(e, &n->u.par.reds[r]), r);
  const char *cond = team_cond(e, n);
  buf_printf(e->out, "#pragma omp parallel for schedule(static)%s%s\n",
             cond ? arena_printf(e->a, " if(%s)", cond) : "", omp_hints(e, n, false, false));
  line(e, "for (int adsoac_b = 0; adsoac_b < ADSOAC_DET_BLOCKS; adsoac_b++) {");
  e->depth++;
  for (int r = 0; r < n->u.par.nreds; r++)
    line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]), pname(e, r), neutral(e, &n->u.par.reds[r]));
  line(e, "unsigned long long adsoac_q1 = adsoac_trip / ADSOAC_DET_BLOCKS * (adsoac_b + 1) + "
          "adsoac_trip %% ADSOAC_DET_BLOCKS * (adsoac_b + 1) / ADSOAC_DET_BLOCKS;");
  line(e, "for (unsigned long long adsoac_q = adsoac_trip / ADSOAC_DET_BLOCKS * adsoac_b + "
          "adsoac_trip %% ADSOAC_DET_BLOCKS * adsoac_b / ADSOAC_DET_BLOCKS; adsoac_q < adsoac_q1; adsoac_q++) {");
  e->depth++;
  const Type *it = e->f->vals[n->u.par.idx].type;
  line(e, "%s %s = (%s)((unsigned long long)%s + adsoac_q);", tname(e, it), ref(e, n->u.par.idx),
       tname(e, it), ref(e, n->u.par.lo));
  emit_body(e, n);
  e->depth--;
  line(e, "}");
  for (int r = 0; r < n->u.par.nreds; r++) line(e, "adsoac_pp%d[adsoac_b] = %s;", r, pname(e, r));
  e->depth--;
  line(e, "}");
  line(e, "for (int adsoac_b = 0; adsoac_b < ADSOAC_DET_BLOCKS; adsoac_b++) {");
  for (int r = 0; r < n->u.par.nreds; r++) {
    const char *tot = arena_printf(e->a, "adsoac_t%d", r);
    line(e, "  %s = %s;", tot, combine(e, &n->u.par.reds[r], tot,
                                       arena_printf(e->a, "adsoac_pp%d[adsoac_b]", r)));
  }
  line(e, "}");
  e->depth--;
  line(e, "}");
  for (int r = 0; r < n->u.par.nreds; r++)
    finish_red(e, &n->u.par.reds[r], arena_printf(e->a, "adsoac_t%d", r));
  e->depth--;
  line(e, "}");
}

// A two-phase loop's chunks (ad/rev_map.c's acc_color): the even ones, then the odd ones,
// each [adsoac_q0, adsoac_q1); with omp_for, a phase's chunks shared by the team.  Leaves
// two blocks open.
static void chunks_open(Emit *e, bool omp_for) {
  line(e, "for (int adsoac_ph = 0; adsoac_ph < 2; adsoac_ph++) {");
  e->depth++;
  if (omp_for) buf_printf(e->out, "#pragma omp for schedule(static)\n");
  line(e, "for (unsigned long long adsoac_ch = adsoac_ph; adsoac_ch < adsoac_nch; adsoac_ch += 2) {");
  e->depth++;
  line(e, "unsigned long long adsoac_q0 = adsoac_ch * adsoac_cw;");
  line(e, "unsigned long long adsoac_q1 = adsoac_trip - adsoac_q0 < adsoac_cw ? adsoac_trip : adsoac_q0 + adsoac_cw;");
}

// A chunk's iterations (after chunks_open): n's index from adsoac_q.  Leaves a block open.
static void chunk_iters_open(Emit *e, const Node *n) {
  const Type *it = e->f->vals[n->u.par.idx].type;
  line(e, "for (unsigned long long adsoac_q = adsoac_q0; adsoac_q < adsoac_q1; adsoac_q++) {");
  e->depth++;
  line(e, "%s %s = (%s)((unsigned long long)%s + adsoac_q);", tname(e, it), ref(e, n->u.par.idx),
       tname(e, it), ref(e, n->u.par.lo));
}

// A manual loop's copy for no team (emit_par_c): the iterations on this thread (a two-phase
// loop's in the team's order of chunks: the same bits, --deterministic), its updates plain,
// its reductions folded into the totals adsoac_tR.
static void seq_copy(Emit *e, const Node *n, bool stk, bool colored) {
  const Node *outer_private = e->private_par, *outer_win = e->win_par;
  bool outer_solo = e->solo, outer_no_team = e->no_team;
  e->private_par = e->win_par = NULL;
  e->solo = false;
  e->no_team = true;
  for (int r = 0; r < n->u.par.nreds; r++)
    line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]), pname(e, r), neutral(e, &n->u.par.reds[r]));
  if (stk) line(e, "AdsoacStk adsoac_stk = {0}; // scratch for the iterations' arrays");
  if (colored) { // the chunks in the team's order: each element's updates in the same order
    chunks_open(e, false);
    chunk_iters_open(e, n);
  } else {
    const char *i = ref(e, n->u.par.idx);
    line(e, "for (%s %s = %s; %s < %s; %s++) {", tname(e, e->f->vals[n->u.par.idx].type), i,
         ref(e, n->u.par.lo), i, ref(e, n->u.par.hi), i);
    e->depth++;
  }
  emit_body(e, n);
  for (int d = colored ? 3 : 1; d > 0; d--) {
    e->depth--;
    line(e, "}");
  }
  if (stk) line(e, "adsoac_stk_release(&adsoac_stk);");
  for (int r = 0; r < n->u.par.nreds; r++) {
    const char *tot = arena_printf(e->a, "adsoac_t%d", r);
    line(e, "%s = %s;", tot, combine(e, &n->u.par.reds[r], tot, pname(e, r)));
  }
  e->private_par = outer_private, e->win_par = outer_win;
  e->solo = outer_solo, e->no_team = outer_no_team;
}

// A parallel loop n; with g, n is the loop after g's scan (or one with no clauses) and runs
// in the scan's second pass: the iterations in one chunk per thread (scan_chunk).
static void emit_par_c(Emit *e, const Node *n, const ScanGroup *g) {
  emit_hist_ops(e, n);
  for (int r = 0; r < n->u.par.nreds; r++) {
    check_red(n, &n->u.par.reds[r]);
    if (n->u.par.reds[r].op == RED_USER) emit_user_op(e, n, &n->u.par.reds[r]);
  }
  if (e->opt->deterministic && !g && det_in_order(e, n)) {
    emit_par_c_in_order(e, n);
    return;
  }
  if (e->opt->deterministic && !g && n->u.par.nreds) {
    emit_par_c_blocked(e, n);
    return;
  }
  if (!g) pragma_comment(e, n);
  line(e, "{");
  e->depth++;
  const Node *outer_private = e->private_par;
  e->private_par = n;
  bool privates = false;
  for (int h = 0; h < n->u.par.nhists; h++) privates |= private_hist(e, n, h);
  if (!privates) e->private_par = NULL;
  // updates that iterations far enough apart make at different elements: chunks that wide,
  // the even ones in parallel, then the odd ones (ACC_COLOR, ad/rev_map.c's acc_color)
  bool colored = !g && n->u.par.color && ty_is_int(e->f->vals[n->u.par.idx].type);
  // adjoints updated at indices nothing bounds: a window per thread (ACC_WINDOW)
  bool windows = !g && n->u.par.nwins;
  const Node *outer_win = e->win_par;
  e->win_par = windows ? n : NULL;
  // arrays the iterations allocate: from a scratch stack per thread (rt_host.h's AdsoacStk)
  bool stk = !g && e->opt->target == TARGET_C && body_allocates(e, n);
  bool outer_stk = e->stk;
  e->stk = stk;
  bool manual = has_user_op(n) || privates || colored || windows || stk; // no reduction clause: declared operators, copies
  // --deterministic, a scan's second pass: each chunk's partials, combined in chunk order
  bool det_g = e->opt->deterministic && g && n->u.par.nreds && !manual;
  Buf clause = {.arena = e->a};
  for (int r = 0; r < n->u.par.nreds; r++) {
    line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]),
         manual || det_g ? arena_printf(e->a, "adsoac_t%d", r) : pname(e, r), neutral(e, &n->u.par.reds[r]));
    if (!det_g) buf_printf(&clause, " reduction(%s: adsoac_r%d)", omp_op(&n->u.par.reds[r]), r);
  }
  // the loop runs only where C's does: OpenMP computes its trip count from lo and hi
  // (GCC as hi - 1 - lo + 1), which wraps when hi <= lo near the ends of the type
  if (g) {
    scan_open(e, g);
  } else {
    line(e, "if (%s < %s) {", ref(e, n->u.par.lo), ref(e, n->u.par.hi));
    e->depth++;
  }
  if (colored) { // (inside the guard lo < hi: hi - lo in unsigned arithmetic is the trip)
    line(e, "unsigned long long adsoac_trip = (unsigned long long)%s - (unsigned long long)%s;",
         ref(e, n->u.par.hi), ref(e, n->u.par.lo));
    line(e, "unsigned long long adsoac_cw = adsoac_chunk_width(adsoac_trip, %s);", ref(e, n->u.par.color));
    line(e, "unsigned long long adsoac_nch = (adsoac_trip - 1) / adsoac_cw + 1;");
    if (e->opt->check_sched) line(e, "unsigned long long adsoac_ep = adsoac_sched_epochs();");
  }
  // a scan's second pass: the chunks, one per thread, in order (schedule(static))
  const char *cond = g ? NULL : colored ? "adsoac_nch > 2 && !adsoac_one_thread(1)" : team_cond(e, n);
  for (int h = 0; cond && h < n->u.par.nhists; h++) // (winners: without the threads' copies of
    if (n->u.par.hists[h].win)                       // the bins, one thread, not a lock each)
      cond = arena_printf(e->a, "%s && (long long)%s <= ADSOAC_PRIVATE_BINS", cond,
                          ref(e, n->u.par.hists[h].len));
  const char *team = g ? " if(adsoac_nc > 1)" : "";
  const char *sched = det_g ? " schedule(static) ordered" : g ? " schedule(static)" : "";
  // a plain loop where it opens no team: the same loop twice, with and without the pragma
  // (a team of one thread still meets at barriers, each a system call in libgomp)
  bool split = cond != NULL;
  // atomic updates, where the team may have one thread: plain then (adsoac_solo)
  bool outer_solo = e->solo;
  if (!g && !split && !e->no_team && !has_hint(n, "num_threads(") &&
      ir_walk(n->u.par.body, &(Walker){.pre = atomic_update, .ctx = &(AtomicWalk){e, colored, false}})) {
    line(e, "const int adsoac_solo = adsoac_one_thread(1);");
    e->solo = true;
  }
  if (split) {
    line(e, "if (%s) {", cond);
    e->depth++;
  }
  for (int k = 0; windows && k < n->u.par.nwins; k++)
    line(e, "AdsoacWins *adsoac_wv%d = adsoac_wins_new(); // %s's windows, one per thread", k,
         ref(e, n->u.par.wins[k]));
  if (manual) { // per-thread partials, combined (the operators are commutative) at the end
    buf_printf(e->out, "#pragma omp parallel%s%s\n", team, g ? scan_hints(e, g) : omp_hints(e, n, false, false));
    line(e, "{");
    e->depth++;
    for (int r = 0; r < n->u.par.nreds; r++)
      line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]), pname(e, r),
           neutral(e, &n->u.par.reds[r]));
    for (int h = 0; h < n->u.par.nhists; h++) // small histograms: a copy per thread
      if (private_hist(e, n, h)) private_open(e, n, h);
    for (int k = 0; windows && k < n->u.par.nwins; k++)
      line(e, "AdsoacWin *adsoac_w%d = adsoac_win_mine(adsoac_wv%d);", k, k);
    if (stk) line(e, "AdsoacStk adsoac_stk = {0}; // this thread's scratch for the iterations' arrays");
    if (colored) {
      chunks_open(e, true);
    } else {
      buf_printf(e->out, "#pragma omp for%s nowait%s\n", sched, g ? "" : omp_hints(e, n, true, false));
    }
  } else {
    buf_printf(e->out, "#pragma omp parallel for%s%s%s%s%s\n", team, sched,
               clause.data ? clause.data : "", g ? scan_hints(e, g) : omp_hints(e, n, false, false),
               g ? "" : omp_hints(e, n, true, false));
  }
  buf_free(&clause);
  if (g) {
    line(e, "for (int adsoac_c = 0; adsoac_c < adsoac_nc; adsoac_c++) {");
    e->depth++;
    for (int r = 0; det_g && r < n->u.par.nreds; r++)
      line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]), pname(e, r), neutral(e, &n->u.par.reds[r]));
    scan_chunk(e, g, false);
    if (det_g) {
      buf_puts(e->out, "#pragma omp ordered\n");
      line(e, "{");
      for (int r = 0; r < n->u.par.nreds; r++) {
        const char *tot = arena_printf(e->a, "adsoac_t%d", r);
        line(e, "  %s = %s;", tot, combine(e, &n->u.par.reds[r], tot, pname(e, r)));
      }
      line(e, "}");
    }
    e->depth--;
    line(e, "}");
  } else if (colored) {
    chunk_iters_open(e, n);
    bool outer_colored = e->colored;
    e->colored = true;
    emit_body(e, n);
    e->colored = outer_colored;
    e->depth--;
    line(e, "}");
    e->depth--;
    line(e, "}");
    e->depth--;
    line(e, "}");
  } else {
    const char *i = ref(e, n->u.par.idx);
    const Type *it = e->f->vals[n->u.par.idx].type;
    for (int copy = 0; copy < (split && !manual ? 2 : 1); copy++) {
      if (copy) {
        e->depth--;
        line(e, "} else { // (a short loop, or one thread: no team%s)",
             ir_walk(n->u.par.body, &(Walker){.pre = atomic_update, .ctx = &(AtomicWalk){e, false, false}})
                 ? ", plain updates"
                 : "");
        e->depth++;
      }
      line(e, "for (%s %s = %s; %s < %s; %s++) {", tname(e, it), i, ref(e, n->u.par.lo), i,
           ref(e, n->u.par.hi), i);
      e->depth++;
      bool outer_no_team = e->no_team;
      e->no_team = copy;
      emit_body(e, n);
      e->no_team = outer_no_team;
      e->depth--;
      line(e, "}");
    }
    if (split && !manual) {
      e->depth--;
      line(e, "}");
    }
  }
  if (manual) {
    if (windows) buf_puts(e->out, "#pragma omp barrier\n"); // (every update made)
    for (int k = 0; windows && k < n->u.par.nwins; k++) {
      const char *stride, *base = elem_addr(e, n->u.par.wins[k], "0", &stride);
      line(e, "adsoac_wins_merge_%s(adsoac_wv%d, %s, %s);",
           e->f->vals[n->u.par.wins[k]].type->elem->kind == TY_FLOAT ? "f" : "d", k, base, stride);
    }
    if (stk) line(e, "adsoac_stk_release(&adsoac_stk);");
    if (n->u.par.nreds || privates) {
      buf_puts(e->out, "#pragma omp critical\n");
      line(e, "{");
      for (int r = 0; r < n->u.par.nreds; r++) {
        const char *tot = arena_printf(e->a, "adsoac_t%d", r);
        line(e, "  %s = %s;", tot, combine(e, &n->u.par.reds[r], tot, pname(e, r)));
      }
      e->depth++;
      for (int h = 0; h < n->u.par.nhists; h++)
        if (private_hist(e, n, h)) private_close(e, n, h);
      e->depth--;
      line(e, "}");
    }
    e->depth--;
    line(e, "}");
  }
  for (int k = 0; windows && k < n->u.par.nwins; k++) line(e, "adsoac_wins_free(adsoac_wv%d);", k);
  if (split && manual) {
    e->depth--;
    line(e, "} else { // (a short loop, or one thread: no team, plain updates)");
    e->depth++;
    seq_copy(e, n, stk, colored);
    e->depth--;
    line(e, "}");
  }
  if (g) {
    Red r = scan_red(&g->s->u.par.scans[0]);
    if (scan_read(e, &g->s->u.par.scans[0])) scan_total(e, &r, "adsoac_last");
  } else {
    e->depth--;
    line(e, "}");
  }
  for (int r = 0; r < n->u.par.nreds; r++)
    finish_red(e, &n->u.par.reds[r], manual || det_g ? arena_printf(e->a, "adsoac_t%d", r) : pname(e, r));
  e->private_par = outer_private;
  e->win_par = outer_win;
  e->stk = outer_stk;
  e->solo = outer_solo;
  e->depth--;
  line(e, "}");
}

// ---- scans on the C target ----
//
// transform/scan.c makes a scan loop three: a map that stores each iteration's term y_i in
// Y, the canonical scan that stores the exclusive prefixes of Y in E, and the rest of the
// loop, which reads E.  The C target runs the three together, in chunks of the iterations,
// one per thread (adsoac_scan_chunks: one where one thread runs, a single pass):
//   pass 1 (two threads or more): each chunk's total but the last one's, the terms computed
//           again from the first loop's body;
//   the chunks' prefixes, in order;
//   pass 2: per chunk, in order, each iteration's term, its prefix, and the third loop's body.
// Y and E are scalars of the passes where nothing else reads them.  The first loop joins
// where its body computes only the terms (it runs once per pass); the third where it writes
// nothing the first loop or the scan reads.

typedef struct {
  const Node *const *ifdef; // the if statement that defines each value (b_select's)
  const int *frees;         // IR_FREE statements of each array
} Plan;

// Is v the constant 0 of an integer type?
static bool is_zero(Emit *e, Val v) {
  const Node *d = e->def[v];
  return d && d->kind == IR_CONST && !ty_is_float(e->f->vals[v].type) && d->u.cst.i == 0;
}

// Is v the long value of x (x itself, or (long)x)?
static bool long_of(Emit *e, Val v, Val x) {
  const Node *d = e->def[v];
  if (e->f->vals[v].type != &ty_long) return false;
  return v == x || (d && d->kind == IR_CAST && d->u.cast.a == x);
}

// Is v hi - lo in long (hi where lo is 0), as transform/scan.c's b_trip computes it?
static bool is_span(Emit *e, Val v, Val lo, Val hi) {
  if (is_zero(e, lo)) return long_of(e, v, hi);
  const Node *d = e->def[v];
  return d && d->kind == IR_BINOP && d->u.bin.op == BIN_SUB && long_of(e, d->u.bin.a, hi) &&
         long_of(e, d->u.bin.b, lo);
}

// Does a scan over [0, len) run once per iteration of a loop over [lo, hi): len is hi with
// lo 0, or max(hi - lo, 0) as b_trip computes it?
static bool same_space(Emit *e, const Plan *pl, Val len, Val lo, Val hi) {
  if (len == hi && is_zero(e, lo)) return true;
  const Node *d = pl->ifdef[len], *c = d ? e->def[d->u.ifs.cond] : NULL;
  return c && d->u.ifs.nouts == 1 && !d->u.ifs.then->n && !d->u.ifs.els->n &&
         c->kind == IR_BINOP && c->u.bin.op == BIN_GT && is_span(e, c->u.bin.a, lo, hi) &&
         is_zero(e, c->u.bin.b) && is_span(e, d->u.ifs.then->yields[0], lo, hi) &&
         is_zero(e, d->u.ifs.els->yields[0]);
}

// Is idx the iteration's place in the scan, i - lo (i where lo is 0), in loop n?
static bool rel_index(Emit *e, const Node *n, Val idx) {
  if (idx == n->u.par.idx) return is_zero(e, n->u.par.lo);
  const Node *d = e->def[idx];
  return d && d->kind == IR_BINOP && d->u.bin.op == BIN_SUB && d->u.bin.a == n->u.par.idx &&
         d->u.bin.b == n->u.par.lo;
}

typedef struct {
  Emit *e;
  const Node *loop;
  unsigned char *local;  // arrays allocated in the loop's body
  unsigned char *read;   // arrays read
  unsigned char *written; // arrays written, accumulated into, updated, copied or sorted into
  unsigned char *read_off, *written_off; // ... somewhere else than at the loop's index
  unsigned char *written_unplaced;       // ... somewhere else than at the scan's place
  const Val *arrs;        // the scan's terms (producer) or prefixes (consumer)
  int narrs, hits;        // ... the accesses to them (at the iteration's place)
  bool bad;               // a statement the passes cannot run again, or an access elsewhere
} Scope;

static bool one_of(const Val *arrs, int n, Val v) {
  for (int k = 0; k < n; k++)
    if (arrs[k] && arrs[k] == v) return true;
  return false;
}

static WalkNext scope_alloc(Node *n, void *ctx) {
  if (n->kind == IR_ALLOC) ((Scope *)ctx)->local[n->out] = 1;
  return WALK_INTO;
}

static WalkNext scope_node(Node *n, void *ctx) {
  Scope *sc = ctx;
  switch (n->kind) {
  case IR_READ:
    sc->read[n->u.mem.arr] = 1;
    sc->read_off[n->u.mem.arr] |= n->u.mem.idx != sc->loop->u.par.idx;
    if (one_of(sc->arrs, sc->narrs, n->u.mem.arr)) {
      sc->hits++;
      sc->bad |= !rel_index(sc->e, sc->loop, n->u.mem.idx);
    }
    break;
  case IR_WRITE: case IR_ACC: case IR_UPDATE:
    sc->written[n->u.mem.arr] = 1;
    sc->written_off[n->u.mem.arr] |= n->kind == IR_UPDATE || n->u.mem.idx != sc->loop->u.par.idx;
    sc->written_unplaced[n->u.mem.arr] |= n->kind == IR_UPDATE || !rel_index(sc->e, sc->loop, n->u.mem.idx);
    if (one_of(sc->arrs, sc->narrs, n->u.mem.arr)) {
      sc->hits++;
      sc->bad |= n->kind != IR_WRITE || !rel_index(sc->e, sc->loop, n->u.mem.idx);
    }
    break;
  case IR_COPY: case IR_SORT:
    sc->written[n->u.copy.dst] = sc->read[n->u.copy.src] = 1;
    sc->written_off[n->u.copy.dst] = sc->read_off[n->u.copy.src] = 1;
    sc->written_unplaced[n->u.copy.dst] = 1;
    break;
  case IR_EXT: case IR_COLL: case IR_RETURN:
    sc->bad = true;
    break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_IF:
  case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_FREE:
    break;
  }
  return WALK_INTO;
}

// What the body of loop n touches; arrs: the accesses to count.
static Scope scope(Emit *e, const Node *n, const Val *arrs, int narrs) {
  int nv = e->f->nvals;
  Scope sc = {e, n, ARENA_ARRAY(e->a, unsigned char, nv), ARENA_ARRAY(e->a, unsigned char, nv),
              ARENA_ARRAY(e->a, unsigned char, nv), ARENA_ARRAY(e->a, unsigned char, nv),
              ARENA_ARRAY(e->a, unsigned char, nv), ARENA_ARRAY(e->a, unsigned char, nv),
              arrs, narrs, 0, false};
  ir_walk(n->u.par.body, &(Walker){.pre = scope_alloc, .ctx = &sc});
  ir_walk(n->u.par.body, &(Walker){.pre = scope_node, .ctx = &sc});
  for (int h = 0; h < n->u.par.nhists; h++) {
    Val a = n->u.par.hists[h].arr, w = n->u.par.hists[h].win;
    sc.written[a] = sc.written_off[a] = sc.written_unplaced[a] = 1;
    if (w) sc.written[w] = sc.written_off[w] = sc.written_unplaced[w] = 1;
  }
  return sc;
}

// p, the statement before scan s: a map whose body computes the terms src (each written
// once, at its top, at the iteration's place) and writes nothing else but its own arrays.
// The terms are then scalars of the passes: nothing else may use src.  A field whose term is
// an input array the scan reads in place (transform/scan.c's in_place: never written) stays
// an array read (made[f] = 0); at least one field is p's.
static bool producer(Emit *e, const Plan *pl, const Node *p, const Node *s, const Val *src,
                     Val *made, Scope *sc) {
  int nf = s->u.par.scans[0].nf, nmade = 0;
  if (p->kind != IR_PAR || p->u.par.nreds || p->u.par.nscans || p->u.par.nhists ||
      !same_space(e, pl, s->u.par.hi, p->u.par.lo, p->u.par.hi))
    return false;
  for (int f = 0; f < nf; f++) {
    for (int g = 0; g < f; g++)
      if (src[g] == src[f]) return false;
    made[f] = e->uses[src[f]] == 2 + pl->frees[src[f]] && ir_writes(p->u.par.body, src[f]) ? src[f] : 0;
    nmade += made[f] != 0;
  }
  if (!nmade) return false;
  *sc = scope(e, p, made, nf);
  if (sc->bad || sc->hits != nmade) return false;
  for (int f = 0; f < nf; f++)
    if (!made[f] && e->def[src[f]]) return false; // (in place: a parameter, never written)
  for (Val v = 1; v < (Val)e->f->nvals; v++)
    if (sc->written[v] && !sc->local[v] && !one_of(made, nf, v)) return false;
  int top = 0; // the writes of the terms are statements of the body itself
  for (int i = 0; i < p->u.par.body->n; i++) {
    const Node *w = p->u.par.body->stmts[i];
    top += w->kind == IR_WRITE && one_of(made, nf, w->u.mem.arr);
  }
  return top == nmade;
}

// c, the statement after scan s: a loop over the same iterations that reads the prefixes dst
// at the iteration's place only, and writes what the producer p or the scan reads only at the
// element that iteration reads (the terms are computed before the iteration's body runs; an
// in-place scan, x[i] = s).
static bool consumer(Emit *e, const Plan *pl, const Node *c, const ScanGroup *g, const Scope *psc) {
  int nf = g->s->u.par.scans[0].nf;
  if (c->kind != IR_PAR || c->u.par.nscans ||
      !same_space(e, pl, g->s->u.par.hi, c->u.par.lo, c->u.par.hi))
    return false;
  Scope sc = scope(e, c, g->dst, nf);
  if (sc.bad || !sc.hits) return false;
  for (Val v = 1; v < (Val)e->f->nvals; v++) {
    if (!sc.written[v] || sc.local[v]) continue;
    if (one_of(g->dst, nf, v) || (g->p && one_of(g->src, nf, v))) return false;
    if (g->p && psc->read[v] && (psc->read_off[v] || sc.written_off[v])) return false;
    if (!g->p && one_of(g->src, nf, v) && sc.written_unplaced[v]) return false;
  }
  return true;
}

// The prefixes dst are read by c alone (and written by the scan): no array needed.
static bool prefixes_only_here(Emit *e, const Plan *pl, const ScanGroup *g) {
  if (!g->c) return false;
  int nf = g->s->u.par.scans[0].nf;
  Scope sc = scope(e, g->c, g->dst, nf);
  int reads = sc.hits, refs = 0;
  for (int f = 0; f < nf; f++)
    if (g->dst[f]) refs += e->uses[g->dst[f]] - 1 - pl->frees[g->dst[f]];
  return refs == reads;
}

// ---- the inclusive prefix that the loop after a scan computes itself ----
//
// The loop after a scan (c) usually computes the scanned variable after its update,
// op(e_i, y_i), from the prefix it reads and the term it computes again: the very value
// the scan's second pass computes to go on.  Where c's body computes it unconditionally,
// pass 2 takes c's value instead (one operator application per iteration, not two, and the
// producer's terms are not computed again in that pass).  Found by matching the operator's
// body against c's statements, its parameters bound to the prefixes c reads and to values
// that compute exactly what the scan's terms are (the producer's, or an input array read in
// place): the same operations on the same values, so the same bits.

// Do value pv of loop p and value cv of loop c compute the same, statement for statement,
// in the same iteration?  Reads must be of arrays neither loop writes.
static bool same_val(Emit *e, const Node *p, Val pv, const Node *c, Val cv, int *budget) {
  if (pv == cv) return true; // (a value from outside both loops)
  if (--*budget < 0) return false;
  if (pv == p->u.par.idx || cv == c->u.par.idx) return pv == p->u.par.idx && cv == c->u.par.idx;
  const Node *dp = e->def[pv], *dc = e->def[cv];
  if (!dp || !dc || dp->kind != dc->kind || e->f->vals[pv].type != e->f->vals[cv].type) return false;
  switch (dp->kind) {
  case IR_CONST: return !memcmp(&dp->u.cst, &dc->u.cst, sizeof dp->u.cst);
  case IR_UNOP: return dp->u.un.op == dc->u.un.op && same_val(e, p, dp->u.un.a, c, dc->u.un.a, budget);
  case IR_BINOP:
    return dp->u.bin.op == dc->u.bin.op && same_val(e, p, dp->u.bin.a, c, dc->u.bin.a, budget) &&
           same_val(e, p, dp->u.bin.b, c, dc->u.bin.b, budget);
  case IR_CAST: return same_val(e, p, dp->u.cast.a, c, dc->u.cast.a, budget);
  case IR_CALL:
    return dp->u.call.fn == dc->u.call.fn && same_val(e, p, dp->u.call.a, c, dc->u.call.a, budget) &&
           (!dp->u.call.b ? !dc->u.call.b : dc->u.call.b && same_val(e, p, dp->u.call.b, c, dc->u.call.b, budget)) &&
           (!dp->u.call.c ? !dc->u.call.c : dc->u.call.c && same_val(e, p, dp->u.call.c, c, dc->u.call.c, budget));
  case IR_READ:
    return dp->u.mem.arr == dc->u.mem.arr && !ir_writes(p->u.par.body, dp->u.mem.arr) &&
           !ir_writes(c->u.par.body, dp->u.mem.arr) &&
           same_val(e, p, dp->u.mem.idx, c, dc->u.mem.idx, budget);
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_EXT: case IR_IF: case IR_LOOP: case IR_PAR:
  case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN:
    return false;
  }
  UNREACHABLE();
}

typedef struct {
  Val *map; // operator value -> c's value (0: not bound yet), one to one: inv the other way
  Val *inv;
  const unsigned char *lam_val; // values the operator's body defines or takes
  Val undo[8]; // the bindings of the candidate being tried (a statement binds at most 4)
  int nundo;
} Unify;

// Can operand x of the operator stand for c's value y (binding it on first use)?
static bool unify(Unify *u, Val x, Val y) {
  if (!u->lam_val[x]) return x == y; // (the operator's bodies see only their own values)
  if (!u->map[x] && !u->inv[y]) {
    u->map[x] = y, u->inv[y] = x;
    u->undo[u->nundo++] = x;
  }
  return u->map[x] == y;
}

// c's top-level statement computing what operator statement n computes, under u.
static bool match_stmt(Emit *e, const Node *c, const Node *n, Unify *u) {
  for (int i = 0; i < c->u.par.body->n; i++) {
    const Node *m = c->u.par.body->stmts[i];
    if (m->kind != n->kind || !m->out || e->f->vals[m->out].type != e->f->vals[n->out].type) continue;
    u->nundo = 0;
    bool ok = false;
    switch (n->kind) {
    case IR_CONST: ok = !memcmp(&n->u.cst, &m->u.cst, sizeof n->u.cst); break;
    case IR_UNOP: ok = n->u.un.op == m->u.un.op && unify(u, n->u.un.a, m->u.un.a); break;
    case IR_BINOP:
      ok = n->u.bin.op == m->u.bin.op && unify(u, n->u.bin.a, m->u.bin.a) && unify(u, n->u.bin.b, m->u.bin.b);
      break;
    case IR_CAST: ok = unify(u, n->u.cast.a, m->u.cast.a); break;
    case IR_CALL:
      ok = n->u.call.fn == m->u.call.fn && unify(u, n->u.call.a, m->u.call.a) &&
           (!n->u.call.b || unify(u, n->u.call.b, m->u.call.b)) &&
           (!n->u.call.c || unify(u, n->u.call.c, m->u.call.c));
      break;
    case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_EXT: case IR_IF: case IR_LOOP:
    case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL:
    case IR_RETURN:
      ok = false;
      break;
    }
    if (ok && unify(u, n->out, m->out)) return true;
    while (u->nundo) { // (a failed candidate leaves no binding)
      Val x = u->undo[--u->nundo];
      u->inv[u->map[x]] = 0, u->map[x] = 0;
    }
  }
  return false;
}

static WalkNext lam_def(Node *n, void *ctx) {
  if (n->out) ((unsigned char *)ctx)[n->out] = 1;
  return WALK_INTO;
}

// The term of field f in c's iteration is value y: what the producer writes to its terms, or
// the element of the input array the scan reads in place.
static bool is_term(Emit *e, const ScanGroup *g, int f, Val y) {
  Val src = g->p && g->made[f] ? g->made[f] : 0;
  if (src) {
    for (int i = 0; i < g->p->u.par.body->n; i++) {
      const Node *w = g->p->u.par.body->stmts[i];
      int budget = 256;
      if (w->kind == IR_WRITE && w->u.mem.arr == src)
        return same_val(e, g->p, w->u.mem.v, g->c, y, &budget);
    }
    return false;
  }
  const Node *d = e->def[y]; // in place: never written (transform/scan.c's in_place)
  return d && d->kind == IR_READ && d->u.mem.arr == g->src[f] && !e->def[g->src[f]] &&
         rel_index(e, g->c, d->u.mem.idx) && !ir_writes(g->c->u.par.body, g->src[f]);
}

// g->incl: c's values of the inclusive prefixes, where c computes them all.
static void find_incl(Emit *e, ScanGroup *g) {
  const Scan *s = &g->s->u.par.scans[0];
  int nf = s->nf, nv = e->f->nvals;
  if (!g->c || s->reverse) return; // (a reverse scan's prefix is y OP e)
  Val *excl = ARENA_ARRAY(e->a, Val, nf); // c's reads of the prefixes, at its place
  for (int i = 0; i < g->c->u.par.body->n; i++) {
    const Node *r = g->c->u.par.body->stmts[i];
    for (int f = 0; f < nf; f++)
      if (r->kind == IR_READ && g->dst[f] && r->u.mem.arr == g->dst[f]) excl[f] = r->out;
  }
  Unify u = {ARENA_ARRAY(e->a, Val, nv), ARENA_ARRAY(e->a, Val, nv), ARENA_ARRAY(e->a, unsigned char, nv),
             {0}, 0};
  Val *incl = ARENA_ARRAY(e->a, Val, nf);
  if (s->op == RED_USER) {
    const Lambda *l = s->lam;
    ir_walk(l->body, &(Walker){.pre = lam_def, .ctx = (void *)u.lam_val});
    for (int f = 0; f < nf; f++) {
      ((unsigned char *)u.lam_val)[l->pa[f]] = ((unsigned char *)u.lam_val)[l->pb[f]] = 1;
      if (excl[f]) u.map[l->pa[f]] = excl[f], u.inv[excl[f]] = l->pa[f];
    }
    for (int i = 0; i < l->body->n; i++)
      if (!match_stmt(e, g->c, l->body->stmts[i], &u)) return;
    for (int f = 0; f < nf; f++) {
      incl[f] = u.map[l->body->yields[f]];
      if (!incl[f] || (u.map[l->pa[f]] && u.map[l->pa[f]] != excl[f]) ||
          (u.map[l->pb[f]] && !is_term(e, g, f, u.map[l->pb[f]])))
        return;
    }
  } else if (s->op == RED_ADD || s->op == RED_MUL) { // e OP y, one field
    Val y = 0;
    for (int i = 0; i < g->c->u.par.body->n && !incl[0]; i++) {
      const Node *m = g->c->u.par.body->stmts[i];
      if (excl[0] && m->kind == IR_BINOP && m->u.bin.op == (s->op == RED_ADD ? BIN_ADD : BIN_MUL) &&
          m->u.bin.a == excl[0] && is_term(e, g, 0, m->u.bin.b))
        incl[0] = m->out, y = m->u.bin.b;
    }
    if (!y) return;
  } else {
    return;
  }
  g->incl = incl;
}

static WalkNext plan_node(Node *n, void *ctx) {
  Plan *pl = ctx;
  if (n->kind == IR_IF)
    for (int k = 0; k < n->u.ifs.nouts; k++) ((const Node **)pl->ifdef)[n->u.ifs.outs[k]] = n;
  if (n->kind == IR_FREE) ((int *)pl->frees)[n->u.copy.dst]++;
  return WALK_INTO;
}

static void plan_block(Emit *e, const Plan *pl, const Block *b) {
  int claimed = -1; // the last statement of the block's previous group
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_LOOP) plan_block(e, pl, n->u.loop.body);
    if (n->kind == IR_IF) plan_block(e, pl, n->u.ifs.then), plan_block(e, pl, n->u.ifs.els);
    if (n->kind != IR_PAR || n->u.par.nscans != 1) continue;
    int nf = n->u.par.scans[0].nf;
    ScanGroup g = {.s = n, .b = b, .first = i, .last = i, .src = ARENA_ARRAY(e->a, Val, nf),
                   .dst = ARENA_ARRAY(e->a, Val, nf), .made = ARENA_ARRAY(e->a, Val, nf)};
    if (!scan_canonical(n, g.src, g.dst)) continue; // (emit_par: an error)
    Scope psc = {0};
    int j = i - 1;
    while (j > claimed && b->stmts[j]->kind == IR_CONST) j--;
    if (!e->opt->no_fuse && j > claimed && producer(e, pl, b->stmts[j], n, g.src, g.made, &psc)) {
      g.p = b->stmts[j];
      g.first = j;
      g.elide_src = true;
    }
    j = i + 1;
    while (j < b->n && b->stmts[j]->kind == IR_CONST) j++;
    if (!e->opt->no_fuse && j < b->n && consumer(e, pl, b->stmts[j], &g, &psc)) {
      g.c = b->stmts[j];
      g.last = j;
      g.elide_dst = prefixes_only_here(e, pl, &g);
      find_incl(e, &g);
    }
    for (int f = 0; f < nf; f++) {
      if (g.elide_src && g.made[f]) e->elide[g.src[f]] = 1;
      if (g.elide_dst && g.dst[f]) e->elide[g.dst[f]] = 1;
    }
    if (e->ngroups % 8 == 0) {
      ScanGroup *ng = ARENA_ARRAY(e->a, ScanGroup, e->ngroups + 8);
      if (e->ngroups) memcpy(ng, e->groups, sizeof *ng * (size_t)e->ngroups);
      e->groups = ng;
    }
    e->groups[e->ngroups++] = g;
    claimed = g.last;
    i = g.last;
  }
}

void plan_scans(Emit *e) {
  e->ngroups = 0;
  e->groups = NULL;
  e->redirect = ARENA_ARRAY(e->a, const char *, e->f->nvals);
  e->elide = ARENA_ARRAY(e->a, unsigned char, e->f->nvals);
  e->dead = ARENA_ARRAY(e->a, unsigned char, e->f->nvals);
  if (e->opt->target != TARGET_C) return;
  Plan pl = {ARENA_ARRAY(e->a, const Node *, e->f->nvals), ARENA_ARRAY(e->a, int, e->f->nvals)};
  ir_walk(e->f->body, &(Walker){.pre = plan_node, .ctx = &pl});
  plan_block(e, &pl, e->f->body);
}

typedef struct {
  Emit *e;
  int *uses;
} PlaceUse;

static void place_use(Val *v, void *ctx) {
  ((PlaceUse *)ctx)->uses[*v]++;
}

static WalkNext place_use_node(Node *n, void *ctx) {
  PlaceUse *u = ctx;
  if ((n->kind == IR_READ || n->kind == IR_WRITE) && u->e->redirect[n->u.mem.arr]) {
    if (n->u.mem.v) u->uses[n->u.mem.v]++; // the place of a scalar's element: not written
  } else {
    ir_node_uses(n, place_use, ctx);
  }
  return WALK_INTO;
}

static void place_use_yields(Block *b, void *ctx) {
  for (int i = 0; i < b->nyields; i++) place_use(&b->yields[i], ctx);
}

// Loop n's index, and i - lo, where they only place the scan's scalars (no element is
// read or written there): e->dead, not written.  Is the index still used?
static bool index_used(Emit *e, const Node *n) {
  PlaceUse u = {e, ARENA_ARRAY(e->a, int, e->f->nvals)};
  ir_walk(n->u.par.body, &(Walker){.pre = place_use_node, .block = place_use_yields, .ctx = &u});
  for (int i = 0; i < n->u.par.body->n; i++) {
    const Node *d = n->u.par.body->stmts[i];
    if (d->kind == IR_BINOP && d->u.bin.op == BIN_SUB && d->u.bin.a == n->u.par.idx &&
        d->u.bin.b == n->u.par.lo && !u.uses[d->out]) {
      e->dead[d->out] = 1;
      u.uses[n->u.par.idx]--;
    }
  }
  return u.uses[n->u.par.idx] > 0;
}

// Iteration adsoac_k of loop n (one of a scan's): its index lo + k, then its body; writes to
// (p) or reads of (c) the scan's arrays go to the passes' scalars (e->redirect).
static void scan_iteration(Emit *e, const Node *n, const Val *arrs, int nf, bool terms,
                           const char *tail) {
  for (int f = 0; f < nf; f++)
    if (arrs[f])
      e->redirect[arrs[f]] = terms ? arena_printf(e->a, "adsoac_y%d", f)
                             : nf == 1 ? "adsoac_e" : arena_printf(e->a, "adsoac_e.f%d", f);
  line(e, "{");
  e->depth++;
  const Type *it = e->f->vals[n->u.par.idx].type;
  if (index_used(e, n))
    line(e, "%s %s = (%s)%s;", tname(e, it), ref(e, n->u.par.idx), tname(e, it),
       is_zero(e, n->u.par.lo) ? "adsoac_k" : arena_printf(e->a, "(%s + adsoac_k)", ref(e, n->u.par.lo)));
  emit_body(e, n);
  if (tail) line(e, "%s", tail);
  e->depth--;
  line(e, "}");
  for (int f = 0; f < nf; f++)
    if (arrs[f]) e->redirect[arrs[f]] = NULL;
}

// Is the scan's total read?
static bool scan_read(Emit *e, const Scan *s) {
  bool read = false;
  for (int f = 0; f < s->nf; f++) read |= e->uses[s->out[f]] != 0;
  return read;
}

// The chunk adsoac_c of the iterations: its total (pass 1, adsoac_part[c]) or, from its
// prefix, the prefixes and the third loop's iterations (pass 2).
static void scan_chunk(Emit *e, const ScanGroup *g, bool totals) {
  const Scan *s = &g->s->u.par.scans[0];
  Red r = scan_red(s);
  const char *t = red_ctype(e, &r);
  bool rev = s->reverse;
  line(e, "long long adsoac_a = adsoac_n * adsoac_c / adsoac_nc, adsoac_b = adsoac_n * (adsoac_c + 1) / adsoac_nc;");
  if (totals) // (the first iteration sets it)
    line(e, "%s adsoac_s = %s;", t, r.nf == 1 ? zero(e, e->f->vals[s->out[0]].type) : "{0}");
  else
    line(e, "%s adsoac_s = adsoac_part[adsoac_c];", t);
  line(e, rev ? "for (long long adsoac_k = adsoac_b - 1; adsoac_k >= adsoac_a; adsoac_k--) {"
              : "for (long long adsoac_k = adsoac_a; adsoac_k < adsoac_b; adsoac_k++) {");
  e->depth++;
  bool own = !totals && g->incl; // (pass 2: c computes op(e, y) itself)
  Buf x = {.arena = e->a};
  if (r.nf > 1) buf_printf(&x, "%s_make(", tup_name(e, &r));
  for (int f = 0; f < r.nf && !own; f++) {
    const Type *ft = e->f->vals[s->out[f]].type;
    bool made = g->p && g->made[f];
    if (made) // (set where the iteration runs: not where its arrays could not be allocated)
      line(e, "%s adsoac_y%d = %s;", tname(e, ft), f, zero(e, ft));
    buf_printf(&x, "%s%s", f ? ", " : "",
               made ? arena_printf(e->a, "adsoac_y%d", f) : elem_at(e, g->src[f], "adsoac_k"));
  }
  if (r.nf > 1) buf_puts(&x, ")");
  if (g->p && !own) scan_iteration(e, g->p, g->made, r.nf, true, NULL);
  if (!own) line(e, "%s adsoac_x = %s;", t, x.data);
  buf_free(&x);
  const char *next = rev ? combine(e, &r, "adsoac_x", "adsoac_s") : combine(e, &r, "adsoac_s", "adsoac_x");
  if (totals) {
    line(e, "adsoac_s = adsoac_k == %s ? adsoac_x : %s;", rev ? "adsoac_b - 1" : "adsoac_a", next);
  } else {
    for (int f = 0; f < r.nf; f++)
      if (g->dst[f] && !g->elide_dst)
        line(e, r.nf == 1 ? "%s = adsoac_s;" : "%s = adsoac_s.f%d;", elem_at(e, g->dst[f], "adsoac_k"), f);
    if (g->c) line(e, "%s adsoac_e = adsoac_s;", t);
    if (!own) line(e, "adsoac_s = %s;", next);
    const char *tail = NULL;
    if (own) { // c's own op(e, y), the same bits
      Buf b = {.arena = e->a};
      buf_puts(&b, "adsoac_s = ");
      if (r.nf > 1) buf_printf(&b, "%s_make(", tup_name(e, &r));
      for (int f = 0; f < r.nf; f++) buf_printf(&b, "%s%s", f ? ", " : "", ref(e, g->incl[f]));
      buf_puts(&b, r.nf > 1 ? "); // the loop's own inclusive prefix" : "; // the loop's own inclusive prefix");
      tail = b.data;
    }
    if (g->c) scan_iteration(e, g->c, g->dst, r.nf, false, tail);
  }
  e->depth--;
  line(e, "}");
  if (totals)
    line(e, "adsoac_part[adsoac_c] = adsoac_s;");
  else if (scan_read(e, s))
    line(e, "if (adsoac_c == %s) adsoac_last = adsoac_s;", rev ? "0" : "adsoac_nc - 1");
}

// The team clauses a scan's passes keep: those of the loop after it, else of the loop before.
static const char *scan_hints(Emit *e, const ScanGroup *g) {
  return omp_hints(e, g->c ? g->c : g->p ? g->p : g->s, false, true);
}

// A scan group's operator and comment.
static void scan_comment(Emit *e, const ScanGroup *g, bool total_only) {
  const Scan *s = &g->s->u.par.scans[0];
  Red r = scan_red(s);
  if (s->op == RED_USER) emit_user_op(e, g->s, &r);
  line(e, "// %s%s, in %s order%s%s", scan_what(e, s, g->src), total_only ? " (its total only)" : "",
       s->reverse ? "reverse" : "index", g->p ? "; its terms from the loop before it" : "",
       g->c ? (g->p ? " and the loop after it in its pass" : "; the loop after it in its pass") : "");
}

// Its length, chunks and the chunks' partial values.
static void scan_chunks(Emit *e, const ScanGroup *g, bool last) {
  Red r = scan_red(&g->s->u.par.scans[0]);
  const char *len = ref(e, g->s->u.par.hi);
  line(e, "long long adsoac_n = %s > 0 ? (long long)%s : 0;", len, len);
  line(e, "int adsoac_nc = adsoac_scan_chunks(adsoac_n);");
  line(e, "%s adsoac_part[ADSOAC_CHUNKS]%s;", red_ctype(e, &r), last ? ", adsoac_last" : "");
}

// A scan group's comments, its length and chunks, pass 1 and the chunks' prefixes.
static void scan_open(Emit *e, const ScanGroup *g) {
  const Scan *s = &g->s->u.par.scans[0];
  Red r = scan_red(s);
  const char *t = red_ctype(e, &r);
  bool rev = s->reverse;
  scan_comment(e, g, false);
  scan_chunks(e, g, scan_read(e, s));
  line(e, "if (adsoac_nc > 1) { // pass 1: the chunks' totals (but the last one's)");
  e->depth++;
  buf_printf(e->out, "#pragma omp parallel for schedule(static)%s\n", scan_hints(e, g));
  line(e, "for (int adsoac_d = 0; adsoac_d < adsoac_nc - 1; adsoac_d++) {");
  e->depth++;
  line(e, "int adsoac_c = %s;", rev ? "adsoac_d + 1" : "adsoac_d");
  scan_chunk(e, g, true);
  e->depth--;
  line(e, "}");
  e->depth--;
  line(e, "}");
  line(e, "%s adsoac_acc = %s; // the chunks' prefixes", t, tuple(e, &r, s->init));
  line(e, "for (int adsoac_d = 0; adsoac_d < adsoac_nc - 1; adsoac_d++) {");
  line(e, "  int adsoac_c = %s;", rev ? "adsoac_nc - 1 - adsoac_d" : "adsoac_d");
  line(e, "  %s adsoac_p = adsoac_part[adsoac_c];", t);
  line(e, "  adsoac_part[adsoac_c] = adsoac_acc;");
  line(e, "  adsoac_acc = %s;", rev ? combine(e, &r, "adsoac_p", "adsoac_acc") : combine(e, &r, "adsoac_acc", "adsoac_p"));
  line(e, "}");
  line(e, "adsoac_part[%s] = adsoac_acc;", rev ? "0" : "adsoac_nc - 1");
  line(e, "// pass 2: per chunk, from its prefix, %s", g->c ? "the prefixes and the loop's iterations" : "the prefixes");
}

static bool same_comment(const Node *a, const Node *b) {
  const char *pa = a->u.par.pragma ? a->u.par.pragma : "map", *pb = b->u.par.pragma ? b->u.par.pragma : "map";
  return a->loc.line == b->loc.line && !strcmp(pa, pb);
}

// A scan of which only the total is read (a reduction with a declared operator that is not
// commutative): one pass, the chunks' totals, combined in order.
static void scan_total_only(Emit *e, const ScanGroup *g) {
  const Scan *s = &g->s->u.par.scans[0];
  Red r = scan_red(s);
  const char *t = red_ctype(e, &r);
  bool rev = s->reverse;
  scan_comment(e, g, true);
  if (!scan_read(e, s)) return; // (nothing reads it)
  line(e, "{");
  e->depth++;
  scan_chunks(e, g, false);
  buf_printf(e->out, "#pragma omp parallel for if(adsoac_nc > 1) schedule(static)%s\n", scan_hints(e, g));
  line(e, "for (int adsoac_c = 0; adsoac_c < adsoac_nc; adsoac_c++) {");
  e->depth++;
  bool stk = e->stk;
  e->stk = false; // (a team of its own: calloc)
  scan_chunk(e, g, true);
  e->stk = stk;
  e->depth--;
  line(e, "}");
  line(e, "%s adsoac_acc = %s;", t, tuple(e, &r, s->init));
  line(e, "for (int adsoac_d = 0; adsoac_n > 0 && adsoac_d < adsoac_nc; adsoac_d++)");
  line(e, "  adsoac_acc = %s;",
       rev ? combine(e, &r, "adsoac_part[adsoac_nc - 1 - adsoac_d]", "adsoac_acc")
           : combine(e, &r, "adsoac_acc", "adsoac_part[adsoac_d]"));
  scan_total(e, &r, "adsoac_acc");
  e->depth--;
  line(e, "}");
}

// The scan group that starts at b->stmts[i], written with its loops; the number of
// statements written (0: none starts there).
int emit_scan_group(Emit *e, const Block *b, int i) {
  const ScanGroup *g = NULL;
  for (int k = 0; k < e->ngroups && !g; k++)
    if (e->groups[k].b == b && e->groups[k].first == i) g = &e->groups[k];
  if (!g) return 0;
  // the three loops' comments, once where they came from one loop
  if (g->p && !same_comment(g->p, g->s)) pragma_comment(e, g->p);
  pragma_comment(e, g->s);
  if (g->c && !same_comment(g->c, g->s)) pragma_comment(e, g->c);
  bool kept = g->c != NULL;
  for (int f = 0; f < g->s->u.par.scans[0].nf; f++) kept |= g->dst[f] != 0;
  static const Node none = {.kind = IR_PAR};
  if (kept)
    emit_par_c(e, g->c ? g->c : &none, g);
  else
    scan_total_only(e, g);
  return g->last - g->first + 1;
}

// ---- CUDA ----

static void mark_used(unsigned char *used, Val v) {
  if (v) used[v] = 1;
}

// The bounds of a loop's histograms (its updates check them).
static void mark_hists(const Node *n, unsigned char *used) {
  for (int h = 0; h < n->u.par.nhists; h++)
    mark_used(used, n->u.par.hists[h].lo), mark_used(used, n->u.par.hists[h].len);
}

typedef struct {
  unsigned char *used, *defd;
} KernelVals;

// What a statement of a kernel's body uses and defines (the walk goes into its blocks).
static WalkNext kernel_vals(Node *n, void *ctx) {
  unsigned char *used = ((KernelVals *)ctx)->used, *defd = ((KernelVals *)ctx)->defd;
  if (n->out) defd[n->out] = 1;
  switch (n->kind) {
  case IR_CONST: break;
  case IR_UNOP: mark_used(used, n->u.un.a); break;
  case IR_BINOP: mark_used(used, n->u.bin.a), mark_used(used, n->u.bin.b); break;
  case IR_CALL:
    mark_used(used, n->u.call.a), mark_used(used, n->u.call.b), mark_used(used, n->u.call.c);
    break;
  case IR_CAST: mark_used(used, n->u.cast.a); break;
  case IR_EXT:
    for (int k = 0; k < n->u.ext.nargs; k++) mark_used(used, n->u.ext.args[k]);
    for (int k = 0; k < n->u.ext.nouts; k++) defd[n->u.ext.outs[k]] = 1;
    break;
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    mark_used(used, n->u.mem.arr), mark_used(used, n->u.mem.idx), mark_used(used, n->u.mem.v);
    break;
  case IR_IF:
    mark_used(used, n->u.ifs.cond);
    for (int k = 0; k < n->u.ifs.nouts; k++) defd[n->u.ifs.outs[k]] = 1;
    break;
  case IR_PAR:
    mark_used(used, n->u.par.lo), mark_used(used, n->u.par.hi);
    mark_hists(n, used);
    for (int r = 0; r < n->u.par.nreds; r++)
      for (int f = 0; f < n->u.par.reds[r].nf; f++) {
        mark_used(used, n->u.par.reds[r].init[f]);
        if (n->u.par.reds[r].ne) mark_used(used, n->u.par.reds[r].ne[f]);
        defd[n->u.par.reds[r].out[f]] = 1;
      }
    defd[n->u.par.idx] = 1;
    break;
  case IR_LOOP:
    mark_used(used, n->u.loop.lo), mark_used(used, n->u.loop.hi);
    for (int k = 0; k < n->u.loop.ncarry; k++) {
      mark_used(used, n->u.loop.init[k]);
      defd[n->u.loop.params[k]] = defd[n->u.loop.outs[k]] = 1;
    }
    defd[n->u.loop.idx] = 1;
    break;
  case IR_ALLOC: mark_used(used, n->u.alloc.n); break;
  case IR_COPY:
    mark_used(used, n->u.copy.dst), mark_used(used, n->u.copy.src), mark_used(used, n->u.copy.n);
    mark_used(used, n->u.copy.off), mark_used(used, n->u.copy.doff);
    break;
  case IR_FREE: mark_used(used, n->u.copy.dst), mark_used(used, n->u.copy.n); break;
  case IR_SORT: case IR_COLL: case IR_RETURN:
    diag_error(n->loc, NULL, "this construct cannot be emitted in a CUDA kernel yet");
  }
  return WALK_INTO;
}

static void kernel_yields(Block *b, void *ctx) {
  for (int i = 0; i < b->nyields; i++) mark_used(((KernelVals *)ctx)->used, b->yields[i]);
}

static void collect_uses(const Block *b, unsigned char *used, unsigned char *defd) {
  ir_walk(b, &(Walker){.pre = kernel_vals, .block = kernel_yields, .ctx = &(KernelVals){used, defd}});
}

// CUDA: whether hist clause h of kernel n gets a copy in each block's shared memory (its
// updates are atomic additions there, then the block adds the bins it moved to the
// histogram: far fewer updates of one address in global memory): a + of float, double or int
// (shared-memory atomics), where the host finds that the copies fit and save updates
// (emit_par_cuda: adsoac_shm).
static bool shared_hist(Emit *e, const Node *n, int h) {
  const Hist *hc = &n->u.par.hists[h];
  const Type *t = e->f->vals[hc->arr].type->elem;
  return hc->op == RED_ADD && (ty_is_float(t) || !strcmp(t->name, "int"));
}

// Whether an update of hist clause h of the loop whose body is b runs in a loop nested in
// the body (depth > 0): then an iteration makes many updates (matvec's x_bar: one per column),
// and a block's copy saves updates whatever the trip count.
static bool nested_update(const Block *b, int h, int depth) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_UPDATE && n->u.mem.hist == h && depth > 0) return true;
    if (n->kind == IR_IF && (nested_update(n->u.ifs.then, h, depth) || nested_update(n->u.ifs.els, h, depth)))
      return true;
    if (n->kind == IR_LOOP && nested_update(n->u.loop.body, h, depth + 1)) return true;
    if (n->kind == IR_PAR && !n->u.par.nhists && nested_update(n->u.par.body, h, depth + 1)) return true;
  }
  return false;
}

static bool any_shared(const Emit *e, const Node *n) {
  for (int h = 0; h < n->u.par.nhists; h++)
    if (e->shm[h]) return true;
  return false;
}

// The kernel's shared-memory copies of its histograms (adsoac_shN, at the operator's
// neutral 0), where the host chose them (adsoac_shm, the same for the whole grid).
static void shared_open(Emit *e, const Node *n) {
  if (!any_shared(e, n)) return;
  line(e, "// the block's copies of its histograms in shared memory, where the host chose them");
  line(e, "unsigned char *adsoac_shp = adsoac_dyn_shm;");
  for (int h = 0; h < n->u.par.nhists; h++) {
    if (!e->shm[h]) continue;
    const char *t = tname(e, e->f->vals[n->u.par.hists[h].arr].type->elem), *len = ref(e, n->u.par.hists[h].len);
    line(e, "%s *adsoac_sh%d = NULL;", t, h);
    line(e, "if (adsoac_shm) {");
    line(e, "  adsoac_sh%d = (%s *)adsoac_shp;", h, t);
    line(e, "  adsoac_shp += ((size_t)%s * sizeof(%s) + 15) / 16 * 16;", len, t);
    line(e, "  for (long long adsoac_b = threadIdx.x; adsoac_b < (long long)%s; adsoac_b += blockDim.x) adsoac_sh%d[adsoac_b] = 0;",
         len, h);
    line(e, "}");
  }
  line(e, "if (adsoac_shm) __syncthreads();");
}

// The copies added to the histograms (the bins they moved only: the section of an adjoint's
// accumulator may reach outside the array where no update goes, as on the C target).
static void shared_close(Emit *e, const Node *n) {
  if (!any_shared(e, n)) return;
  line(e, "if (adsoac_shm) {");
  line(e, "  __syncthreads();");
  for (int h = 0; h < n->u.par.nhists; h++) {
    if (!e->shm[h]) continue;
    const Hist *hc = &n->u.par.hists[h];
    line(e, "  for (long long adsoac_b = threadIdx.x; adsoac_b < (long long)%s; adsoac_b += blockDim.x) {", ref(e, hc->len));
    line(e, "    long long adsoac_j = (long long)%s + adsoac_b;", ref(e, hc->lo));
    line(e, "    if (adsoac_sh%d[adsoac_b] != 0) atomicAdd(&%s, adsoac_sh%d[adsoac_b]);", h,
         elem_at(e, hc->arr, "adsoac_j"), h);
    line(e, "  }");
  }
  line(e, "}");
}

static void emit_kernel(Emit *e, const Node *n, const char *kname, const Val *args, int nargs) {
  Buf *host_out = e->out;
  int depth = e->depth;
  e->out = &e->kernels;
  e->depth = 0;
  const Type *it = e->f->vals[n->u.par.idx].type;
  const char *i = ref(e, n->u.par.idx);
  buf_puts(e->out, "\n");
  pragma_comment(e, n);
  Buf sig = {.arena = e->a};
  buf_printf(&sig, "static __global__ void __launch_bounds__(ADSOAC_BLOCK)\n%s(%s adsoac_lo, long long adsoac_n",
             kname, tname(e, it));
  for (int k = 0; k < nargs; k++) {
    const Type *t = e->f->vals[args[k]].type;
    if (on_dev(e, args[k])) // (a scalar kept on the device: its cell)
      buf_printf(&sig, ", const %s *%s", tname(e, t), dev_ref(e, args[k]));
    else
      buf_printf(&sig, ", %s%s%s", tname(e, t), t->kind == TY_PTR ? "" : " ", ref(e, args[k]));
  }
  for (int r = 0; r < n->u.par.nreds; r++)
    buf_printf(&sig, ", %s *adsoac_part%d", red_ctype(e, &n->u.par.reds[r]), r);
  if (any_shared(e, n)) buf_puts(&sig, ", int adsoac_shm");
  line(e, "%s) {", sig.data);
  buf_free(&sig);
  e->depth = 1;
  shared_open(e, n);
  for (int k = 0; k < nargs; k++)
    if (on_dev(e, args[k]))
      line(e, "%s %s = *%s;", tname(e, e->f->vals[args[k]].type), ref(e, args[k]), dev_ref(e, args[k]));
  for (int r = 0; r < n->u.par.nreds; r++)
    line(e, "%s adsoac_r%d = %s;", red_ctype(e, &n->u.par.reds[r]), r, neutral(e, &n->u.par.reds[r]));
  // the iterations counted in 64 bits: lo + k never passes hi, so never wraps
  line(e, "for (long long adsoac_k = (long long)(blockIdx.x * blockDim.x + threadIdx.x); adsoac_k < adsoac_n;");
  line(e, "     adsoac_k += (long long)gridDim.x * blockDim.x) {");
  e->depth++;
  line(e, "%s %s = (%s)(adsoac_lo + adsoac_k);", tname(e, it), i, tname(e, it));
  emit_body(e, n);
  e->depth--;
  line(e, "}");
  shared_close(e, n);
  for (int r = 0; r < n->u.par.nreds; r++) {
    if (r) line(e, "__syncthreads();");
    line(e, "adsoac_block_reduce(adsoac_r%d, adsoac_part%d, %s());", r, r,
         cub_op(e, &n->u.par.reds[r]));
  }
  buf_puts(e->out, "}\n");
  e->out = host_out;
  e->depth = depth;
}

// The last stage of reduction r, whose result is kept on the device (emit_dev.c), over the
// g partials part: adsoac_reduce_to, its initial value from its cell or the host.
static const char *reduce_to(Emit *e, const Red *r, const char *part, const char *g) {
  Val in = r->init[0];
  return arena_printf(e->a, "adsoac_reduce_to(%s, %s, %s, %s, %s, %s(), adsoac_cx)", part, g, dev_ref(e, r->out[0]),
                      on_dev(e, in) ? neutral(e, r) : ref(e, in),
                      on_dev(e, in) ? dev_ref(e, in) : arena_printf(e->a, "(const %s *)NULL", red_ctype(e, r)),
                      cub_op(e, r));
}

static void emit_par_cuda(Emit *e, const Node *n) {
  int kn = ++e->nkernels;
  const char *kname = arena_printf(e->a, "adsoac_k%d_%s", kn, e->f->name);
  unsigned char *used = calloc((size_t)e->f->nvals, 1), *defd = calloc((size_t)e->f->nvals, 1);
  defd[n->u.par.idx] = 1;
  collect_uses(n->u.par.body, used, defd);
  mark_hists(n, used);
  for (int r = 0; r < n->u.par.nreds; r++) // the kernel starts its partials at the neutral
    for (int f = 0; n->u.par.reds[r].op == RED_USER && f < n->u.par.reds[r].nf; f++)
      mark_used(used, n->u.par.reds[r].ne[f]);
  Val *args = ARENA_ARRAY(e->a, Val, e->f->nvals);
  int nargs = 0;
  // a field of a struct parameter: the kernel takes the struct (it writes p.f and p[k].f)
  for (int v = 1; v < e->f->nvals; v++)
    if (used[v] && e->f->vals[v].parent) used[e->f->vals[v].parent] = 1;
  for (int v = 1; v < e->f->nvals; v++)
    if (used[v] && !defd[v] && !(e->def[v] && e->def[v]->kind == IR_CONST) && !e->f->vals[v].parent)
      args[nargs++] = (Val)v;
  free(used);
  free(defd);
  for (int r = 0; r < n->u.par.nreds; r++) {
    check_red(n, &n->u.par.reds[r]);
    if (n->u.par.reds[r].op == RED_USER) emit_user_op(e, n, &n->u.par.reds[r]);
  }
  emit_hist_ops(e, n);
  bool in_order = e->opt->deterministic && det_in_order(e, n);
  const Node *shm_par = e->shm_par;
  unsigned char *shm = e->shm;
  e->shm_par = n;
  e->shm = ARENA_ARRAY(e->a, unsigned char, n->u.par.nhists + 1);
  bool any_shm = false;
  for (int h = 0; h < n->u.par.nhists; h++) // (--deterministic's in-order kernels: none)
    any_shm |= e->shm[h] = !in_order && shared_hist(e, n, h);
  emit_kernel(e, n, kname, args, nargs);

  const char *fn = where(e);
  e->uses_fail = true;
  pragma_comment(e, n);
  line(e, "{");
  e->depth++;
  line(e, "long long adsoac_n = %s < %s ? (long long)%s - (long long)%s : 0;", ref(e, n->u.par.lo),
       ref(e, n->u.par.hi), ref(e, n->u.par.hi), ref(e, n->u.par.lo));
  const char **part = ARENA_ARRAY(e->a, const char *, n->u.par.nreds + 1);
  for (int r = 0; r < n->u.par.nreds; r++) {
    const char *ct = red_ctype(e, &n->u.par.reds[r]);
    part[r] = arena_printf(e->a, "adsoac_p%d_%d", kn, r);
    add_temp(e, arena_printf(e->a, "%s *%s", ct, part[r]));
    if (!on_dev(e, n->u.par.reds[r].out[0]))
      line(e, "%s adsoac_r%d = %s;", ct, r, neutral(e, &n->u.par.reds[r]));
  }
  line(e, "if (adsoac_n > 0) {");
  e->depth++;
  // --deterministic: threads that would meet at shared elements or histograms (atomics) run
  // as one, in iteration order; reductions keep their grid, which n alone sets
  if (in_order)
    line(e, "int adsoac_g = 1; // --deterministic: one thread, the iterations in order (atomic updates meet)");
  else
    line(e, "int adsoac_g = adsoac_grid(adsoac_n);");
  for (int r = 0; r < n->u.par.nreds; r++)
    line(e, "ADSOAC_CHECK(adsoac_dev_alloc((void **)&%s, (adsoac_g + 1) * sizeof *%s, %s));",
         part[r], part[r], fn);
  if (any_shm) { // the histograms' copies in shared memory: where they fit and save updates
    Buf len = {.arena = e->a}, bytes = {.arena = e->a};
    bool nested = false;
    for (int h = 0; h < n->u.par.nhists; h++) {
      if (!e->shm[h]) continue;
      nested |= nested_update(n->u.par.body, h, 0);
      const char *l = arena_printf(e->a, "(%s > 0 ? (long long)%s : 0)", ref(e, n->u.par.hists[h].len),
                                   ref(e, n->u.par.hists[h].len));
      buf_printf(&len, "%s%s", len.len ? " + " : "", l);
      buf_printf(&bytes, "%s(%s * (long long)sizeof(%s) + 15) / 16 * 16", bytes.len ? " + " : "", l,
                 tname(e, e->f->vals[n->u.par.hists[h].arr].type->elem));
    }
    line(e, "long long adsoac_shb = %s;", bytes.data ? bytes.data : "0");
    if (nested) // (many updates an iteration)
      line(e, "int adsoac_shm = adsoac_shb <= ADSOAC_SHARED_HIST;");
    else
      line(e, "int adsoac_shm = adsoac_shb <= ADSOAC_SHARED_HIST && (long long)adsoac_g * (%s) <= adsoac_n;",
           len.data ? len.data : "0");
    buf_free(&len);
    buf_free(&bytes);
  }
  Buf call = {.arena = e->a};
  buf_printf(&call, "%s<<<adsoac_g, %s, %s, adsoac_cx->s>>>(%s, adsoac_n", kname, in_order ? "1" : "ADSOAC_BLOCK",
             any_shm ? "adsoac_shm ? (size_t)adsoac_shb : 0" : "0", ref(e, n->u.par.lo));
  for (int k = 0; k < nargs; k++) buf_printf(&call, ", %s", on_dev(e, args[k]) ? dev_ref(e, args[k]) : ref(e, args[k]));
  for (int r = 0; r < n->u.par.nreds; r++) buf_printf(&call, ", %s", part[r]);
  if (any_shm) buf_puts(&call, ", adsoac_shm");
  line(e, "%s);", call.data);
  e->shm_par = shm_par;
  e->shm = shm;
  buf_free(&call);
  line(e, "ADSOAC_CHECK(adsoac_launched(%s));", fn);
  bool synced = false, devs = false;
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *rd = &n->u.par.reds[r];
    if (on_dev(e, rd->out[0])) { // (its result to its cell, the initial value combined there)
      line(e, "ADSOAC_CHECK(%s);", reduce_to(e, rd, part[r], "adsoac_g"));
      devs = true;
    } else {
      if (!synced) note_sync(e, n->loc, arena_printf(e->a, "reads the result of the reduction at line %u", n->loc.line));
      synced = true;
      line(e, "ADSOAC_CHECK(adsoac_reduce(%s, adsoac_g, &adsoac_r%d, %s(), %s));", part[r], r, cub_op(e, rd), fn);
    }
    line(e, "adsoac_dev_free(%s, %s);", part[r], fn);
    line(e, "%s = NULL;", part[r]);
  }
  e->depth--;
  if (devs) { // (no iterations: the initial value)
    line(e, "} else {");
    for (int r = 0; r < n->u.par.nreds; r++)
      if (on_dev(e, n->u.par.reds[r].out[0]))
        line(e, "  ADSOAC_CHECK(%s);", reduce_to(e, &n->u.par.reds[r], arena_printf(e->a, "(%s *)NULL",
                                                  red_ctype(e, &n->u.par.reds[r])), "0"));
  }
  line(e, "}");
  for (int r = 0; r < n->u.par.nreds; r++)
    if (!on_dev(e, n->u.par.reds[r].out[0]))
      finish_red(e, &n->u.par.reds[r], arena_printf(e->a, "adsoac_r%d", r));
  e->depth--;
  line(e, "}");
}

// A parallel loop inside another's body runs sequentially in the enclosing iteration (thread),
// on both targets.
static void emit_par_seq(Emit *e, const Node *n) {
  emit_hist_ops(e, n);
  for (int r = 0; r < n->u.par.nreds; r++) {
    check_red(n, &n->u.par.reds[r]);
    if (n->u.par.reds[r].op == RED_USER) emit_user_op(e, n, &n->u.par.reds[r]);
    for (int f = 0; !e->if_depth && f < n->u.par.reds[r].nf; f++) // declared where the body sees them
      if (e->uses[n->u.par.reds[r].out[f]] || n->u.par.reds[r].nf == 1) line(e, "%s %s;", tname(e, e->f->vals[n->u.par.reds[r].out[f]].type),
           ref(e, n->u.par.reds[r].out[f]));
  }
  pragma_comment(e, n);
  line(e, "{");
  e->depth++;
  e->par_depth++;
  for (int r = 0; r < n->u.par.nreds; r++)
    line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]), pname(e, r),
         neutral(e, &n->u.par.reds[r]));
  const char *i = ref(e, n->u.par.idx);
  line(e, "for (%s %s = %s; %s < %s; %s++) {", tname(e, e->f->vals[n->u.par.idx].type), i,
       ref(e, n->u.par.lo), i, ref(e, n->u.par.hi), i);
  e->depth++;
  int ifd = e->if_depth;
  emit_body(e, n);
  e->if_depth = ifd;
  e->depth--;
  line(e, "}");
  for (int r = 0; r < n->u.par.nreds; r++) finish_red(e, &n->u.par.reds[r], pname(e, r));
  e->par_depth--;
  e->depth--;
  line(e, "}");
}

void emit_par(Emit *e, const Node *n) {
  if (n->u.par.nscans) {
    if (e->opt->target == TARGET_C) { // (a canonical one on the host is in a group)
      Val src[n->u.par.scans[0].nf], dst[n->u.par.scans[0].nf];
      check_scan(e, n, src, dst);
      diag_internal(__FILE__, __LINE__, "a scan outside the planned groups");
    }
    emit_scan(e, n);
    return;
  }
  if (!e->host) {
    emit_par_seq(e, n);
    return;
  }
  if (e->opt->target == TARGET_CUDA)
    emit_par_cuda(e, n);
  else
    emit_par_c(e, n, NULL);
}

// ---- accumulation and memory ----

void emit_acc(Emit *e, const Node *n) {
  const char *el = elem_at(e, n->u.mem.arr, ref(e, n->u.mem.idx));
  const char *v = ref(e, n->u.mem.v);
  if (e->host && e->opt->target == TARGET_CUDA) {
    const Type *t = e->f->vals[n->u.mem.arr].type->elem;
    e->uses_fail = true;
    if (on_dev(e, n->u.mem.v))
      line(e, "ADSOAC_CHECK(adsoac_add_at(&%s, %s, %s));", el, dev_ref(e, n->u.mem.v), where(e));
    else
      line(e, "ADSOAC_CHECK(adsoac_add(&%s, (%s)%s, %s));", el, tname(e, t), v, where(e));
    return;
  }
  if (n->u.mem.mode == ACC_WINDOW && e->win_par && !e->no_team) {
    const Node *w = e->win_par;
    int k = 0;
    while (k < w->u.par.nwins && w->u.par.wins[k] != n->u.mem.arr) k++;
    if (k < w->u.par.nwins) {
      bool f32 = e->f->vals[n->u.mem.arr].type->elem->kind == TY_FLOAT;
      if (e->solo) { // (one thread: no window)
        line(e, "if (adsoac_solo) {");
        line(e, "  %s += %s;", el, v);
        line(e, "} else if (!adsoac_win_add_%s(adsoac_w%d, (long long)%s, %s)) {", f32 ? "f" : "d",
             k, ref(e, n->u.mem.idx), v);
      } else {
        line(e, "if (!adsoac_win_add_%s(adsoac_w%d, (long long)%s, %s)) {", f32 ? "f" : "d", k,
             ref(e, n->u.mem.idx), v);
      }
      buf_puts(e->out, "#pragma omp atomic\n");
      line(e, "  %s += %s;", el, v);
      line(e, "}");
      return;
    }
  }
  if (n->u.mem.mode == ACC_COLOR && e->colored && e->opt->check_sched)
    line(e, "adsoac_sched_check(&%s, adsoac_ep + (unsigned long long)adsoac_ph, adsoac_ch, \"%s\");", el,
         e->f->name);
  if (n->u.mem.mode == ACC_ATOMIC || n->u.mem.mode == ACC_WINDOW ||
      (n->u.mem.mode == ACC_COLOR && !e->colored)) {
    if (e->opt->target == TARGET_CUDA) {
      line(e, "atomicAdd(&%s, %s);", el, v);
      return;
    }
    if (e->no_team) { // (the loop's copy without a team)
      line(e, "%s += %s;", el, v);
      return;
    }
    TypeKind k = e->f->vals[n->u.mem.arr].type->elem->kind;
    if (e->solo && (k == TY_DOUBLE || k == TY_FLOAT)) { // atomic only in a team of several
      line(e, "adsoac_add_%s(adsoac_solo, &%s, %s);", k == TY_FLOAT ? "f" : "d", el, v);
      return;
    }
    buf_puts(e->out, "#pragma omp atomic\n");
  }
  line(e, "%s += %s;", el, v);
}

// An element count as a size_t: a negative count (an empty range or section) is 0, never a
// size near SIZE_MAX (and the C compiler sees that the size is bounded).
static const char *count(Emit *e, Val n) {
  const Node *d = e->def[n];
  if (d && d->kind == IR_CONST) return arena_printf(e->a, "(size_t)%lld", d->u.cst.i > 0 ? d->u.cst.i : 0);
  const char *v = ref(e, n);
  return arena_printf(e->a, "(size_t)(%s > 0 ? %s : 0)", v, v);
}

// An iteration's own array: on its stack, or on the heap (set to NULL at the body's start).
static void emit_private(Emit *e, const Node *n) {
  bool cuda = e->opt->target == TARGET_CUDA;
  const Type *t = n->out ? e->f->vals[n->out].type : NULL;
  const char *name = n->out ? ref(e, n->out) : NULL;
  switch (n->kind) {
  case IR_ALLOC:
    if (alloc_on_stack(e, n)) {
      long long k = e->def[n->u.alloc.n]->u.cst.i;
      line(e, "%s %s[%lld] = {0};", tname(e, t->elem), name, k > 0 ? k : 1);
      return;
    }
    if (e->stk)
      line(e, "%s = (%s)adsoac_stk_calloc(&adsoac_stk, %s, sizeof *%s);", name, tname(e, t),
           count(e, n->u.alloc.n), name);
    else
      line(e, "%s = (%s)%s(%s, sizeof *%s);", name, tname(e, t), cuda ? "adsoac_dev_calloc" : "calloc",
           count(e, n->u.alloc.n), name);
    line(e, "if (!%s) {", name);
    line(e, "  adsoac_priv_oom%s;", cuda ? "_ = 1" : "()");
    line(e, "  goto adsoac_skip_%d;", e->skip);
    line(e, "}");
    return;
  case IR_FREE: {
    const Node *a = e->def[n->u.copy.dst];
    if (a && a->kind == IR_ALLOC && alloc_on_stack(e, a)) return;
    line(e, e->stk ? "adsoac_stk_free(&adsoac_stk, %s);" : "free(%s);", ref(e, n->u.copy.dst));
    line(e, "%s = NULL;", ref(e, n->u.copy.dst));
    return;
  }
  case IR_COPY: { // (element by element: also a field of an array of structs)
    const char *doff = n->u.copy.doff ? ref(e, n->u.copy.doff) : "0", *off = ref(e, n->u.copy.off);
    const Node *cn = e->def[n->u.copy.n];
    if (cn && cn->kind == IR_CONST && cn->u.cst.i == 1 && !n->u.copy.swap) { // (one element)
      line(e, "%s = %s;", elem_at(e, n->u.copy.dst, doff), elem_at(e, n->u.copy.src, off));
      return;
    }
    const char *d = elem_at(e, n->u.copy.dst, arena_printf(e->a, "%s + adsoac_c", doff));
    const char *s = elem_at(e, n->u.copy.src, arena_printf(e->a, "%s + adsoac_c", off));
    line(e, "for (long adsoac_c = 0; adsoac_c < (long)%s; adsoac_c++) {", ref(e, n->u.copy.n));
    if (n->u.copy.swap) {
      line(e, "  %s adsoac_t = %s;", tname(e, e->f->vals[n->u.copy.dst].type->elem), s);
      line(e, "  %s = %s;", s, d);
      line(e, "  %s = adsoac_t;", d);
    } else {
      line(e, "  %s = %s;", d, s);
    }
    line(e, "}");
    return;
  }
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_PAR:
  case IR_SORT: case IR_COLL: case IR_RETURN:
    break;
  }
  diag_error(n->loc, NULL, "this construct cannot be emitted in a parallel loop's body");
}

// for k < cnt: d = s, or d and s swapped (d, s: the elements at adsoac_k), by a team where
// the count asks for one (adsoac_team), else by the calling thread: a team of one costs a
// system call (a sequential loop's reverse restores a few elements per step).
static void elem_loop(Emit *e, const char *cnt, bool swap, const char *t, const char *d,
                      const char *s) {
  line(e, "if (adsoac_team((unsigned long long)%s)) {", cnt);
  e->depth++;
  for (int team = 1; team >= 0; team--) {
    if (team) line(e, "#pragma omp parallel for");
    line(e, "for (long adsoac_k = 0; adsoac_k < %s; adsoac_k++) {", cnt);
    if (swap) {
      line(e, "  %s adsoac_t = %s;", t, s);
      line(e, "  %s = %s;", s, d);
      line(e, "  %s = adsoac_t;", d);
    } else {
      line(e, "  %s = %s;", d, s);
    }
    line(e, "}");
    e->depth--;
    line(e, team ? "} else {" : "}");
    e->depth += team;
  }
}

// IR_COPY where an array is a field of an array of structs, whose elements are a struct's
// size apart: dst[doff + k] = src[off + k] (or the two swapped) for k < n, element by element.
static void strided_copy(Emit *e, const Node *n) {
  Val dst = n->u.copy.dst, src = n->u.copy.src;
  const char *doff = n->u.copy.doff ? ref(e, n->u.copy.doff) : "0", *off = ref(e, n->u.copy.off);
  if (e->opt->target == TARGET_CUDA) {
    const char *ds, *ss, *da = elem_addr(e, dst, doff, &ds), *sa = elem_addr(e, src, off, &ss);
    e->uses_fail = true;
    line(e, "ADSOAC_CHECK(adsoac_dev_strided(%s, %s, %s, %s, (long long)%s, %s, %s));", da, ds,
         sa, ss, ref(e, n->u.copy.n), n->u.copy.swap ? "true" : "false", where(e));
    return;
  }
  const char *d = elem_at(e, dst, arena_printf(e->a, "%s + adsoac_k", doff));
  const char *s = elem_at(e, src, arena_printf(e->a, "%s + adsoac_k", off));
  const char *t = tname(e, e->f->vals[src].type->elem);
  elem_loop(e, arena_printf(e->a, "(long)%s", ref(e, n->u.copy.n)), n->u.copy.swap, t, d, s);
}

void emit_memory(Emit *e, const Node *n) {
  bool cuda = e->opt->target == TARGET_CUDA;
  const char *fn = where(e);
  if (!e->host && n->kind != IR_SORT) {
    emit_private(e, n);
    return;
  }
  if ((n->kind == IR_ALLOC && e->elide[n->out]) || (n->kind == IR_FREE && e->elide[n->u.copy.dst]))
    return; // a scan's terms or prefixes, scalars of its passes
  switch (n->kind) {
  case IR_ALLOC: {
    const Type *t = e->f->vals[n->out].type;
    const char *name = ref(e, n->out);
    add_temp(e, arena_printf(e->a, "%s%s", tname(e, t), name));
    e->uses_fail = true;
    line(e, "ADSOAC_CHECK(%s%s((void **)&%s, %s * sizeof *%s, %s));%s",
         cuda ? "adsoac_dev_alloc" : "adsoac_host_alloc", n->u.alloc.nozero ? "_raw" : "", name,
         count(e, n->u.alloc.n), name, fn, n->u.alloc.nozero ? " // (not zeroed: written first)" : "");
    if (n->u.alloc.tape)
      line(e, "adsoac_checkpoint_add_(%s * sizeof *%s, 1);", count(e, n->u.alloc.n), name);
    return;
  }
  case IR_SORT:
    e->uses_fail = true;
    line(e, "ADSOAC_CHECK(adsoac_sort_by_key(%s, %s, (long)%s, (long)%s, %s));",
         ref(e, n->u.copy.src), ref(e, n->u.copy.dst), ref(e, n->u.copy.n), ref(e, n->u.copy.off), fn);
    return;
  case IR_COPY: {
    if (e->f->vals[n->u.copy.dst].parent || e->f->vals[n->u.copy.src].parent) {
      strided_copy(e, n); // a field of an array of structs
      return;
    }
    const char *save = ref(e, n->u.copy.dst), *arr = ref(e, n->u.copy.src);
    if (n->u.copy.doff) save = arena_printf(e->a, "%s + %s", save, ref(e, n->u.copy.doff));
    const char *off = ref(e, n->u.copy.off), *cnt = ref(e, n->u.copy.n);
    if (cuda && !n->u.copy.swap) {
      e->uses_fail = true;
      line(e, "ADSOAC_CHECK(adsoac_dev_copy(%s, %s + %s, %s * sizeof *(%s), %s));", save, arr,
           off, count(e, n->u.copy.n), save, fn);
    } else if (cuda) {
      e->uses_fail = true;
      line(e, "ADSOAC_CHECK(adsoac_dev_swap(%s + %s, %s, %s, %s));", arr, off, save, cnt, fn);
    } else if (!n->u.copy.swap) {
      // (memmove: where a length is computed, GCC may not see that the copies cannot overlap)
      line(e, "memmove(%s, %s + %s, %s * sizeof *(%s));", save, arr, off, count(e, n->u.copy.n), save);
    } else {
      elem_loop(e, cnt, true, tname(e, e->f->vals[n->u.copy.dst].type->elem),
                arena_printf(e->a, "(%s)[adsoac_k]", save), arena_printf(e->a, "%s[%s + adsoac_k]", arr, off));
    }
    return;
  }
  case IR_FREE:
    if (n->u.copy.tape)
      line(e, "if (%s) adsoac_checkpoint_add_(%s * sizeof *%s, -1);", ref(e, n->u.copy.dst),
           count(e, n->u.copy.n), ref(e, n->u.copy.dst));
    if (cuda)
      line(e, "adsoac_dev_free(%s, %s);", ref(e, n->u.copy.dst), fn);
    else
      line(e, "adsoac_host_free(%s);", ref(e, n->u.copy.dst));
    line(e, "%s = NULL;", ref(e, n->u.copy.dst));
    return;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_PAR: case IR_COLL:
  case IR_RETURN:
    break; // (emit_stmt's)
  }
  UNREACHABLE();
}
