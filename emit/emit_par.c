// emit/emit_par.c: parallel loops (an OpenMP loop, or a CUDA kernel and its launch),
// adjoint accumulation, and temporary arrays, for both targets.
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "emit_internal.h"

// A temporary ("T *name") that the function's error path frees.
static void add_temp(Emit *e, const char *decl) {
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
    line(e, "%s = %s;", pr, combine(e, red, pr, tuple(e, red, n->u.par.body->yields + red->slot)));
  }
  if (h.n) {
    e->depth--;
    line(e, "}");
    line(e, "adsoac_skip_%d:;", e->skip);
    for (int k = 0; k < h.n; k++) line(e, "free(%s);", ref(e, h.heap[k]));
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
  if (e->opt->target == TARGET_CUDA) {
    if (h->op == RED_ADD && (ty_is_float(t) || !strcmp(t->name, "int")))
      line(e, "atomicAdd(&%s, %s);", a, v);
    else
      line(e, "adsoac_atomic_op(&%s, %s, %s());", a, v, cub_op(e, &r));
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
}

// Merges a thread's copy into the histogram (inside the loop's critical section).
// A thread's copy merged into the histogram, atomically: a thread whose copy could not be
// allocated, or an update outside any copy, may still be adding atomically.
static void private_close(Emit *e, const Node *n, int h) {
  const Hist *hc = &n->u.par.hists[h];
  const char *ph = arena_printf(e->a, "adsoac_ph%d", h), *a = elem_at(e, hc->arr, "adsoac_j");
  Red r = hist_red(hc, &hc->arr);
  line(e, "if (%s) {", ph);
  line(e, "  for (long long adsoac_b = 0; adsoac_b < (long long)%s; adsoac_b++) {", ref(e, hc->len));
  e->depth += 2;
  line(e, "long long adsoac_j = (long long)%s + adsoac_b;", ref(e, hc->lo));
  emit_atomic_c(e, hc, &r, a, arena_printf(e->a, "%s[adsoac_b]", ph),
                tname(e, e->f->vals[hc->arr].type->elem));
  e->depth -= 2;
  line(e, "  }");
  line(e, "  free(%s);", ph);
  line(e, "}");
}

// The OpenMP loop's clauses kept as hints (IR_PAR.hints) for the primal f's pragma: " CLAUSE"
// each, those of the loop (schedule) or of the team (the others), the parameters they name
// written by their names here.
static const char *omp_hints(Emit *e, const Node *n, bool loop) {
  Buf b = {.arena = e->a};
  for (int h = 0; e->primal && h < n->u.par.nhints; h++) {
    const char *t = n->u.par.hints[h];
    if (loop != !strncmp(t, "schedule(", 9)) continue;
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

static void emit_par_c(Emit *e, const Node *n) {
  emit_hist_ops(e, n);
  for (int r = 0; r < n->u.par.nreds; r++) {
    check_red(n, &n->u.par.reds[r]);
    if (n->u.par.reds[r].op == RED_USER) emit_user_op(e, n, &n->u.par.reds[r]);
  }
  pragma_comment(e, n);
  const char *i = ref(e, n->u.par.idx);
  const Type *it = e->f->vals[n->u.par.idx].type;
  line(e, "{");
  e->depth++;
  const Node *outer_private = e->private_par;
  e->private_par = n;
  bool privates = false;
  for (int h = 0; h < n->u.par.nhists; h++) privates |= private_hist(e, n, h);
  if (!privates) e->private_par = NULL;
  bool manual = has_user_op(n) || privates; // no reduction clause: declared operators, copies
  Buf clause = {.arena = e->a};
  for (int r = 0; r < n->u.par.nreds; r++) {
    line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]),
         manual ? arena_printf(e->a, "adsoac_t%d", r) : pname(e, r), neutral(e, &n->u.par.reds[r]));
    buf_printf(&clause, " reduction(%s: adsoac_r%d)", omp_op(&n->u.par.reds[r]), r);
  }
  // the loop runs only where C's does: OpenMP computes its trip count from lo and hi
  // (GCC as hi - 1 - lo + 1), which wraps when hi <= lo near the ends of the type
  line(e, "if (%s < %s) {", ref(e, n->u.par.lo), ref(e, n->u.par.hi));
  e->depth++;
  if (manual) { // per-thread partials, combined (the operators are commutative) at the end
    buf_printf(e->out, "#pragma omp parallel%s\n", omp_hints(e, n, false));
    line(e, "{");
    e->depth++;
    for (int r = 0; r < n->u.par.nreds; r++)
      line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]), pname(e, r),
           neutral(e, &n->u.par.reds[r]));
    for (int h = 0; h < n->u.par.nhists; h++) // small histograms: a copy per thread
      if (private_hist(e, n, h)) private_open(e, n, h);
    buf_printf(e->out, "#pragma omp for nowait%s\n", omp_hints(e, n, true));
  } else {
    buf_printf(e->out, "#pragma omp parallel for%s%s%s\n", clause.data ? clause.data : "",
               omp_hints(e, n, false), omp_hints(e, n, true));
  }
  buf_free(&clause);
  line(e, "for (%s %s = %s; %s < %s; %s++) {", tname(e, it), i, ref(e, n->u.par.lo), i,
       ref(e, n->u.par.hi), i);
  e->depth++;
  emit_body(e, n);
  e->depth--;
  line(e, "}");
  if (manual) {
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
    e->depth--;
    line(e, "}");
  }
  e->depth--;
  line(e, "}");
  for (int r = 0; r < n->u.par.nreds; r++)
    finish_red(e, &n->u.par.reds[r], manual ? arena_printf(e->a, "adsoac_t%d", r) : pname(e, r));
  e->private_par = outer_private;
  e->depth--;
  line(e, "}");
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
  case IR_SORT: case IR_RETURN:
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
    buf_printf(&sig, ", %s%s%s", tname(e, t), t->kind == TY_PTR ? "" : " ", ref(e, args[k]));
  }
  for (int r = 0; r < n->u.par.nreds; r++)
    buf_printf(&sig, ", %s *adsoac_part%d", red_ctype(e, &n->u.par.reds[r]), r);
  line(e, "%s) {", sig.data);
  buf_free(&sig);
  e->depth = 1;
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
  for (int r = 0; r < n->u.par.nreds; r++) {
    if (r) line(e, "__syncthreads();");
    line(e, "adsoac_block_reduce(adsoac_r%d, adsoac_part%d, %s());", r, r,
         cub_op(e, &n->u.par.reds[r]));
  }
  buf_puts(e->out, "}\n");
  e->out = host_out;
  e->depth = depth;
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
  emit_kernel(e, n, kname, args, nargs);

  const char *fn = e->f->name;
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
    line(e, "%s adsoac_r%d = %s;", ct, r, neutral(e, &n->u.par.reds[r]));
  }
  line(e, "if (adsoac_n > 0) {");
  e->depth++;
  line(e, "int adsoac_g = adsoac_grid(adsoac_n);");
  for (int r = 0; r < n->u.par.nreds; r++)
    line(e, "ADSOAC_CHECK(adsoac_dev_alloc((void **)&%s, (adsoac_g + 1) * sizeof *%s, \"%s\"));",
         part[r], part[r], fn);
  Buf call = {.arena = e->a};
  buf_printf(&call, "%s<<<adsoac_g, ADSOAC_BLOCK>>>(%s, adsoac_n", kname, ref(e, n->u.par.lo));
  for (int k = 0; k < nargs; k++) buf_printf(&call, ", %s", ref(e, args[k]));
  for (int r = 0; r < n->u.par.nreds; r++) buf_printf(&call, ", %s", part[r]);
  line(e, "%s);", call.data);
  buf_free(&call);
  line(e, "ADSOAC_CHECK(adsoac_launched(\"%s\"));", fn);
  for (int r = 0; r < n->u.par.nreds; r++) {
    line(e, "ADSOAC_CHECK(adsoac_reduce(%s, adsoac_g, &adsoac_r%d, %s(), \"%s\"));", part[r], r,
         cub_op(e, &n->u.par.reds[r]), fn);
    line(e, "adsoac_dev_free(%s);", part[r]);
    line(e, "%s = NULL;", part[r]);
  }
  e->depth--;
  line(e, "}");
  for (int r = 0; r < n->u.par.nreds; r++)
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
    emit_par_c(e, n);
}

// ---- accumulation and memory ----

void emit_acc(Emit *e, const Node *n) {
  const char *el = elem_at(e, n->u.mem.arr, ref(e, n->u.mem.idx));
  const char *v = ref(e, n->u.mem.v);
  if (e->host && e->opt->target == TARGET_CUDA) {
    const Type *t = e->f->vals[n->u.mem.arr].type->elem;
    e->uses_fail = true;
    line(e, "{");
    line(e, "  %s adsoac_t;", tname(e, t));
    line(e, "  ADSOAC_CHECK(adsoac_load(&adsoac_t, &%s, sizeof adsoac_t, \"%s\"));", el, e->f->name);
    line(e, "  adsoac_t += %s;", v);
    line(e, "  ADSOAC_CHECK(adsoac_store(&%s, &adsoac_t, sizeof adsoac_t, \"%s\"));", el, e->f->name);
    line(e, "}");
    return;
  }
  if (n->u.mem.mode == ACC_ATOMIC) {
    if (e->opt->target == TARGET_CUDA) {
      line(e, "atomicAdd(&%s, %s);", el, v);
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
    line(e, "free(%s);", ref(e, n->u.copy.dst));
    line(e, "%s = NULL;", ref(e, n->u.copy.dst));
    return;
  }
  case IR_COPY: { // (element by element: also a field of an array of structs)
    const char *doff = n->u.copy.doff ? ref(e, n->u.copy.doff) : "0", *off = ref(e, n->u.copy.off);
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
  case IR_SORT: case IR_RETURN:
    break;
  }
  diag_error(n->loc, NULL, "this construct cannot be emitted in a parallel loop's body");
}

// IR_COPY where an array is a field of an array of structs, whose elements are a struct's
// size apart: dst[doff + k] = src[off + k] (or the two swapped) for k < n, element by element.
static void strided_copy(Emit *e, const Node *n) {
  Val dst = n->u.copy.dst, src = n->u.copy.src;
  const char *doff = n->u.copy.doff ? ref(e, n->u.copy.doff) : "0", *off = ref(e, n->u.copy.off);
  if (e->opt->target == TARGET_CUDA) {
    const char *ds, *ss, *da = elem_addr(e, dst, doff, &ds), *sa = elem_addr(e, src, off, &ss);
    e->uses_fail = true;
    line(e, "ADSOAC_CHECK(adsoac_dev_strided(%s, %s, %s, %s, (long long)%s, %s, \"%s\"));", da, ds,
         sa, ss, ref(e, n->u.copy.n), n->u.copy.swap ? "true" : "false", e->f->name);
    return;
  }
  const char *d = elem_at(e, dst, arena_printf(e->a, "%s + adsoac_k", doff));
  const char *s = elem_at(e, src, arena_printf(e->a, "%s + adsoac_k", off));
  line(e, "#pragma omp parallel for");
  line(e, "for (long adsoac_k = 0; adsoac_k < (long)%s; adsoac_k++) {", ref(e, n->u.copy.n));
  if (n->u.copy.swap) {
    line(e, "  %s adsoac_t = %s;", tname(e, e->f->vals[src].type->elem), s);
    line(e, "  %s = %s;", s, d);
    line(e, "  %s = adsoac_t;", d);
  } else {
    line(e, "  %s = %s;", d, s);
  }
  line(e, "}");
}

void emit_memory(Emit *e, const Node *n) {
  bool cuda = e->opt->target == TARGET_CUDA;
  const char *fn = e->f->name;
  if (!e->host && n->kind != IR_SORT) {
    emit_private(e, n);
    return;
  }
  switch (n->kind) {
  case IR_ALLOC: {
    const Type *t = e->f->vals[n->out].type;
    const char *name = ref(e, n->out);
    add_temp(e, arena_printf(e->a, "%s%s", tname(e, t), name));
    e->uses_fail = true;
    line(e, "ADSOAC_CHECK(%s((void **)&%s, %s * sizeof *%s, \"%s\"));",
         cuda ? "adsoac_dev_alloc" : "adsoac_host_alloc", name, count(e, n->u.alloc.n), name, fn);
    if (n->u.alloc.tape)
      line(e, "adsoac_checkpoint_add_(%s * sizeof *%s, 1);", count(e, n->u.alloc.n), name);
    return;
  }
  case IR_SORT:
    e->uses_fail = true;
    line(e, "ADSOAC_CHECK(adsoac_sort_by_key(%s, %s, (long)%s, (long)%s, \"%s\"));",
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
      line(e, "ADSOAC_CHECK(adsoac_dev_copy(%s, %s + %s, %s * sizeof *(%s), \"%s\"));", save, arr,
           off, count(e, n->u.copy.n), save, fn);
    } else if (cuda) {
      e->uses_fail = true;
      line(e, "ADSOAC_CHECK(adsoac_dev_swap(%s + %s, %s, %s, \"%s\"));", arr, off, save, cnt, fn);
    } else if (!n->u.copy.swap) {
      // (memmove: where a length is computed, GCC may not see that the copies cannot overlap)
      line(e, "memmove(%s, %s + %s, %s * sizeof *(%s));", save, arr, off, count(e, n->u.copy.n), save);
    } else {
      line(e, "#pragma omp parallel for");
      line(e, "for (long adsoac_k = 0; adsoac_k < %s; adsoac_k++) {", cnt);
      line(e, "  %s adsoac_t = %s[%s + adsoac_k];", tname(e, e->f->vals[n->u.copy.dst].type->elem), arr, off);
      line(e, "  %s[%s + adsoac_k] = (%s)[adsoac_k];", arr, off, save);
      line(e, "  (%s)[adsoac_k] = adsoac_t;", save);
      line(e, "}");
    }
    return;
  }
  case IR_FREE:
    if (n->u.copy.tape)
      line(e, "if (%s) adsoac_checkpoint_add_(%s * sizeof *%s, -1);", ref(e, n->u.copy.dst),
           count(e, n->u.copy.n), ref(e, n->u.copy.dst));
    line(e, "%s(%s);", cuda ? "adsoac_dev_free" : "adsoac_host_free", ref(e, n->u.copy.dst));
    line(e, "%s = NULL;", ref(e, n->u.copy.dst));
    return;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_PAR: case IR_RETURN:
    break; // (emit_stmt's)
  }
  UNREACHABLE();
}
