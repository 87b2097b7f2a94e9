// emit/emit_par.c: parallel loops (an OpenMP loop, or a CUDA kernel and its launch),
// adjoint accumulation, and temporary arrays, for both targets.
#include <stdlib.h>
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

static const char *zero(Emit *e, const Type *t) {
  return ty_is_float(t) ? (t->kind == TY_FLOAT ? "0.0f" : "0.0") : arena_printf(e->a, "(%s)0", t->name);
}

static Type *red_type(Emit *e, const Red *r) {
  return e->f->vals[r->out[0]].type;
}

// A reduction over a tuple (the fields of a struct value, or a value and an index) runs on a
// struct type of the generated code.
static const char *tup_name(Emit *e, const Red *r) {
  return arena_printf(e->a, "adsoac_tup%u_%s", r->lam->pa[0], e->f->name);
}

static const char *red_ctype(Emit *e, const Red *r) {
  return r->nf > 1 ? tup_name(e, r) : tname(e, red_type(e, r));
}

// The tuple of values vs[0 .. nf) as an expression of the reduction's type.
static const char *tuple(Emit *e, const Red *r, const Val *vs) {
  if (r->nf == 1) return ref(e, vs[0]);
  Buf b = {0};
  buf_printf(&b, "%s_make(", tup_name(e, r));
  for (int f = 0; f < r->nf; f++) buf_printf(&b, "%s%s", f ? ", " : "", ref(e, vs[f]));
  buf_puts(&b, ")");
  const char *s = arena_strdup(e->a, b.data);
  buf_free(&b);
  return s;
}

// out = init OP partial, field by field.
static void finish_red(Emit *e, const Red *r, const char *partial);
static const char *combine(Emit *e, const Red *r, const char *a, const char *b);

static void check_red(const Node *n, const Red *r) {
  if ((r->op == RED_USER && !r->commutative) || (r->nf != 1 && r->op != RED_USER))
    diag_error(n->loc, NULL, "code generation for reduce(%s: ...) is not supported yet",
               r->user_fn ? r->user_fn : redop_name(r->op));
}

// The neutral element of a reduction's partial results.
static const char *neutral(Emit *e, const Red *r) {
  const Type *t = red_type(e, r);
  bool f = ty_is_float(t);
  switch (r->op) {
  case RED_ADD: return zero(e, t);
  case RED_MUL: return f ? (t->kind == TY_FLOAT ? "1.0f" : "1.0") : arena_printf(e->a, "(%s)1", t->name);
  case RED_MIN:
  case RED_MAX:
    if (f) return arena_printf(e->a, "%s(%s)INFINITY", r->op == RED_MIN ? "" : "-", t->name);
    return arena_printf(e->a, "(%s)%s", t->name, r->op == RED_MIN ? "LLONG_MAX" : "LLONG_MIN");
  case RED_USER: return tuple(e, r, r->ne);
  }
  UNREACHABLE();
}

static const char *user_op(Emit *e, const Red *r) {
  return arena_printf(e->a, "adsoac_op%u_%s", r->lam->pa[0], e->f->name);
}

static void finish_red(Emit *e, const Red *r, const char *partial) {
  const char *v = combine(e, r, tuple(e, r, r->init), partial);
  if (r->nf == 1) {
    line(e, "%s = %s;", ref(e, r->out[0]), v);
    return;
  }
  line(e, "{");
  line(e, "  %s adsoac_v = %s;", tup_name(e, r), v);
  for (int f = 0; f < r->nf; f++)
    if (e->uses[r->out[f]]) line(e, "  %s = adsoac_v.f%d;", ref(e, r->out[f]), f);
  line(e, "}");
}

// The struct type of a tuple reduction, and its constructor.
static void emit_tuple_type(Emit *e, const Red *r, bool cuda) {
  const char *tn = tup_name(e, r);
  buf_printf(e->out, "typedef struct {");
  for (int f = 0; f < r->nf; f++)
    buf_printf(e->out, " %s f%d;", tname(e, e->f->vals[r->out[f]].type), f);
  buf_printf(e->out, " } %s;\n", tn);
  buf_printf(e->out, "static inline %s%s %s_make(", cuda ? "__host__ __device__ " : "", tn, tn);
  for (int f = 0; f < r->nf; f++)
    buf_printf(e->out, "%s%s f%d", f ? ", " : "", tname(e, e->f->vals[r->out[f]].type), f);
  buf_printf(e->out, ") {\n  %s t;\n", tn);
  for (int f = 0; f < r->nf; f++) buf_printf(e->out, "  t.f%d = f%d;\n", f, f);
  buf_puts(e->out, "  return t;\n}\n");
}

// A declared operator as a function (and, for CUB, a functor) before the function that uses it.
static void emit_user_op(Emit *e, const Node *n, const Red *r) {
  const char *name = user_op(e, r);
  const Type *t = red_type(e, r);
  const Lambda *l = r->lam;
  Buf *out = e->out;
  int depth = e->depth, ifd = e->if_depth;
  bool host = e->host, cuda = e->opt->target == TARGET_CUDA;
  e->out = &e->helpers;
  buf_printf(e->out, "\n// the operator %s of #pragma adsoac %s (%s:%u)\n", r->user_fn,
             n->u.par.pragma ? n->u.par.pragma : "", e->opt->input_name, n->loc.line);
  const char *ct = red_ctype(e, r);
  e->depth = 1;
  e->host = false;
  e->if_depth = 0;
  if (r->nf == 1) {
    buf_printf(e->out, "static inline %s%s %s(%s %s, %s %s) {\n", cuda ? "__host__ __device__ " : "",
               tname(e, t), name, tname(e, t), ref(e, l->pa[0]), tname(e, t), ref(e, l->pb[0]));
  } else {
    emit_tuple_type(e, r, cuda);
    buf_printf(e->out, "static inline %s%s %s(%s adsoac_a, %s adsoac_b) {\n",
               cuda ? "__host__ __device__ " : "", ct, name, ct, ct);
    for (int f = 0; f < r->nf; f++) {
      const char *ft = tname(e, e->f->vals[l->pa[f]].type);
      line(e, "%s %s = adsoac_a.f%d, %s = adsoac_b.f%d;", ft, ref(e, l->pa[f]), f, ref(e, l->pb[f]), f);
    }
  }
  declare_hoisted(e, l->body, false);
  emit_block(e, l->body);
  line(e, "return %s;", tuple(e, r, l->body->yields));
  buf_puts(e->out, "}\n");
  if (cuda)
    buf_printf(e->out, "struct AdsoacOp%u_%s {\n  __host__ __device__ %s operator()(%s a, %s b) "
               "const { return %s(a, b); }\n};\n", r->lam->pa[0], e->f->name, ct, ct, ct, name);
  e->out = out;
  e->depth = depth;
  e->host = host;
  e->if_depth = ifd;
}

static bool has_user_op(const Node *n) {
  for (int r = 0; r < n->u.par.nreds; r++)
    if (n->u.par.reds[r].op == RED_USER) return true;
  return false;
}

// "a OP b" as a C expression; for min and max a tie keeps a.
static const char *combine(Emit *e, const Red *r, const char *a, const char *b) {
  switch (r->op) {
  case RED_ADD: return arena_printf(e->a, "%s + %s", a, b);
  case RED_MUL: return arena_printf(e->a, "%s * %s", a, b);
  case RED_MIN: return arena_printf(e->a, "%s < %s ? %s : %s", b, a, b, a);
  case RED_MAX: return arena_printf(e->a, "%s > %s ? %s : %s", b, a, b, a);
  case RED_USER: return arena_printf(e->a, "%s(%s, %s)", user_op(e, r), a, b);
  }
  UNREACHABLE();
}

static const char *omp_op(const Red *r) {
  return r->op == RED_ADD ? "+" : r->op == RED_MUL ? "*" : r->op == RED_MIN ? "min" : "max";
}

static const char *cub_op(Emit *e, const Red *r) {
  if (r->op == RED_USER) return arena_printf(e->a, "AdsoacOp%u_%s", r->lam->pa[0], e->f->name);
  return r->op == RED_ADD ? "AdsoacSum" : r->op == RED_MUL ? "AdsoacProd"
         : r->op == RED_MIN ? "AdsoacMin" : "AdsoacMax";
}

// The partial result of reduction r of the loop being emitted (nested loops: their own names).
static const char *pname(Emit *e, int r) {
  return e->par_depth ? arena_printf(e->a, "adsoac_r%d_%d", e->par_depth, r)
                      : arena_printf(e->a, "adsoac_r%d", r);
}

static void emit_body(Emit *e, const Node *n) {
  bool host = e->host;
  int ifd = e->if_depth;
  const Node *par = e->par, *hist_par = e->hist_par;
  e->par = n;
  if (n->u.par.nhists || !e->par_depth) e->hist_par = n;
  e->host = false;
  e->if_depth = 0;
  declare_hoisted(e, n->u.par.body, false);
  emit_block(e, n->u.par.body);
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    const char *pr = pname(e, r);
    line(e, "%s = %s;", pr, combine(e, red, pr, tuple(e, red, n->u.par.body->yields + red->slot)));
  }
  e->par = par;
  e->hist_par = hist_par;
  e->host = host;
  e->if_depth = ifd;
}

static void comment(Emit *e, const Node *n) {
  line(e, "// #pragma adsoac %s (%s:%u)", n->u.par.pragma ? n->u.par.pragma : "map",
       e->opt->input_name, n->loc.line);
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
  const char *a = ref(e, n->u.mem.arr), *v = ref(e, n->u.mem.v), *ty = tname(e, t);
  line(e, "{");
  e->depth++;
  line(e, "long long adsoac_j = (long long)%s;", ref(e, n->u.mem.idx));
  line(e, "if (adsoac_j >= (long long)%s && adsoac_j < (long long)%s + (long long)%s) {",
       ref(e, h->lo), ref(e, h->lo), ref(e, h->len));
  e->depth++;
  if (e->opt->target == TARGET_CUDA) {
    if (h->op == RED_ADD && (ty_is_float(t) || !strcmp(t->name, "int")))
      line(e, "atomicAdd(&%s[adsoac_j], %s);", a, v);
    else
      line(e, "adsoac_atomic_op(&%s[adsoac_j], %s, %s());", a, v, cub_op(e, &r));
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

// C: a[adsoac_j] OP= v atomically.
static void emit_atomic_c(Emit *e, const Hist *h, const Red *r, const char *a, const char *v,
                          const char *ty) {
  if (h->op == RED_ADD || h->op == RED_MUL) {
    buf_puts(e->out, "#pragma omp atomic\n");
    line(e, "%s[adsoac_j] %s= %s;", a, h->op == RED_ADD ? "+" : "*", v);
  } else {
    line(e, "%s adsoac_o, adsoac_w;", ty);
    line(e, "__atomic_load(&%s[adsoac_j], &adsoac_o, __ATOMIC_RELAXED);", a);
    line(e, "do adsoac_w = %s;", combine(e, r, "adsoac_o", v));
    line(e, "while (!__atomic_compare_exchange(&%s[adsoac_j], &adsoac_o, &adsoac_w, 0, "
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
  const char *ph = arena_printf(e->a, "adsoac_ph%d", h), *a = ref(e, hc->arr);
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

static void emit_par_c(Emit *e, const Node *n) {
  emit_hist_ops(e, n);
  for (int r = 0; r < n->u.par.nreds; r++) {
    check_red(n, &n->u.par.reds[r]);
    if (n->u.par.reds[r].op == RED_USER) emit_user_op(e, n, &n->u.par.reds[r]);
  }
  comment(e, n);
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
  Buf clause = {0};
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
    buf_puts(e->out, "#pragma omp parallel\n");
    line(e, "{");
    e->depth++;
    for (int r = 0; r < n->u.par.nreds; r++)
      line(e, "%s %s = %s;", red_ctype(e, &n->u.par.reds[r]), pname(e, r),
           neutral(e, &n->u.par.reds[r]));
    for (int h = 0; h < n->u.par.nhists; h++) // small histograms: a copy per thread
      if (private_hist(e, n, h)) private_open(e, n, h);
    buf_puts(e->out, "#pragma omp for nowait\n");
  } else {
    buf_printf(e->out, "#pragma omp parallel for%s\n", clause.data ? clause.data : "");
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

static void collect_uses(const Block *b, unsigned char *used, unsigned char *defd) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->out) defd[n->out] = 1;
    switch (n->kind) {
    case IR_CONST: break;
    case IR_UNOP: mark_used(used, n->u.un.a); break;
    case IR_BINOP: mark_used(used, n->u.bin.a), mark_used(used, n->u.bin.b); break;
    case IR_CALL: mark_used(used, n->u.call.a), mark_used(used, n->u.call.b); break;
    case IR_CAST: mark_used(used, n->u.cast.a); break;
    case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
      mark_used(used, n->u.mem.arr), mark_used(used, n->u.mem.idx), mark_used(used, n->u.mem.v);
      break;
    case IR_IF:
      mark_used(used, n->u.ifs.cond);
      collect_uses(n->u.ifs.then, used, defd);
      collect_uses(n->u.ifs.els, used, defd);
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
      collect_uses(n->u.par.body, used, defd);
      break;
    case IR_LOOP:
      mark_used(used, n->u.loop.lo), mark_used(used, n->u.loop.hi);
      for (int k = 0; k < n->u.loop.ncarry; k++) {
        mark_used(used, n->u.loop.init[k]);
        defd[n->u.loop.params[k]] = defd[n->u.loop.outs[k]] = 1;
      }
      defd[n->u.loop.idx] = 1;
      collect_uses(n->u.loop.body, used, defd);
      break;
    case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_RETURN:
      diag_error(n->loc, NULL, "this construct cannot be emitted in a CUDA kernel yet");
    }
  }
  for (int i = 0; i < b->nyields; i++) mark_used(used, b->yields[i]);
}

static void emit_kernel(Emit *e, const Node *n, const char *kname, const Val *args, int nargs) {
  Buf *host_out = e->out;
  int depth = e->depth;
  e->out = &e->kernels;
  e->depth = 0;
  const Type *it = e->f->vals[n->u.par.idx].type;
  const char *i = ref(e, n->u.par.idx);
  buf_puts(e->out, "\n");
  comment(e, n);
  Buf sig = {0};
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
  for (int v = 1; v < e->f->nvals; v++)
    if (used[v] && !defd[v] && !(e->def[v] && e->def[v]->kind == IR_CONST)) args[nargs++] = (Val)v;
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
  comment(e, n);
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
  Buf call = {0};
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
  comment(e, n);
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

// ---- scans ----

// A canonical scan (transform/scan.c) as a reduction clause, for the operator helpers.
static Red scan_red(const Scan *s) {
  return (Red){.op = s->op, .nf = s->nf, .init = s->init, .out = s->out, .lam = s->lam,
               .user_fn = s->user_fn, .var = s->var};
}

static void check_scan(Emit *e, const Node *n, Val *src, Val *dst) {
  if (!e->host || !scan_canonical(n, src, dst))
    diag_error(n->loc, NULL, "code generation for this scan(...) is not supported yet");
}

// Element k of the scanned arrays src (one per field) as a value of the scan's type.
static const char *scan_load(Emit *e, const Red *r, const Val *src, const char *k) {
  Buf b = {0};
  if (r->nf > 1) buf_printf(&b, "%s_make(", tup_name(e, r));
  for (int f = 0; f < r->nf; f++) buf_printf(&b, "%s%s[%s]", f ? ", " : "", ref(e, src[f]), k);
  if (r->nf > 1) buf_puts(&b, ")");
  const char *s = arena_strdup(e->a, b.data);
  buf_free(&b);
  return s;
}

// Stores the value v (a variable of the scan's type) as prefix k of the kept fields.
static void scan_store(Emit *e, const Red *r, const Val *dst, const char *k, const char *v) {
  for (int f = 0; f < r->nf; f++) {
    if (!dst[f]) continue;
    if (r->nf == 1)
      line(e, "%s[%s] = %s;", ref(e, dst[f]), k, v);
    else
      line(e, "%s[%s] = %s.f%d;", ref(e, dst[f]), k, v, f);
  }
}

// The total of a scan into its output values (those that are read).
static void scan_total(Emit *e, const Red *r, const char *v) {
  for (int f = 0; f < r->nf; f++)
    if (e->uses[r->out[f]]) line(e, r->nf == 1 ? "%s = %s;" : "%s = %s.f%d;", ref(e, r->out[f]), v, f);
}

static const char *scan_what(Emit *e, const Scan *s, const Val *src) {
  const char *op = s->user_fn ? s->user_fn : redop_name(s->op);
  return s->nf == 1 ? arena_printf(e->a, "%s exclusive scan of %s", op, ref(e, src[0]))
                    : arena_printf(e->a, "%s exclusive scan of (%s, ...)", op, ref(e, src[0]));
}

// C: the loop cut into ADSOAC_CHUNKS contiguous chunks; each chunk's total in parallel, the
// chunks' prefixes in order, then each chunk's elements in parallel (two passes over src).
static void emit_scan_c(Emit *e, const Node *n) {
  Val src[n->u.par.scans[0].nf], dst[n->u.par.scans[0].nf];
  check_scan(e, n, src, dst);
  const Scan *s = &n->u.par.scans[0];
  Red r = scan_red(s);
  if (s->op == RED_USER) emit_user_op(e, n, &r);
  const char *t = red_ctype(e, &r), *xk = scan_load(e, &r, src, "adsoac_k");
  bool rev = s->reverse;
  comment(e, n);
  bool kept = false;
  for (int f = 0; f < s->nf; f++) kept |= dst[f] != 0;
  line(e, "// %s%s, in %s order", scan_what(e, s, src), kept ? "" : " (its total only)",
       rev ? "reverse" : "index");
  line(e, "{");
  e->depth++;
  line(e, "long long adsoac_n = %s > 0 ? (long long)%s : 0;", ref(e, n->u.par.hi), ref(e, n->u.par.hi));
  line(e, "%s adsoac_part[ADSOAC_CHUNKS];", t);
  line(e, "int adsoac_have[ADSOAC_CHUNKS];");
  buf_puts(e->out, "#pragma omp parallel for\n");
  line(e, "for (int adsoac_c = 0; adsoac_c < ADSOAC_CHUNKS; adsoac_c++) {");
  line(e, "  long long adsoac_a = adsoac_n * adsoac_c / ADSOAC_CHUNKS, adsoac_b = adsoac_n * (adsoac_c + 1) / ADSOAC_CHUNKS;");
  line(e, "  adsoac_have[adsoac_c] = adsoac_a < adsoac_b;");
  line(e, "  if (adsoac_a == adsoac_b) continue;");
  if (!rev) {
    line(e, "  %s adsoac_s = %s;", t, scan_load(e, &r, src, "adsoac_a"));
    line(e, "  for (long long adsoac_k = adsoac_a + 1; adsoac_k < adsoac_b; adsoac_k++)");
    line(e, "    adsoac_s = %s;", combine(e, &r, "adsoac_s", xk));
  } else {
    line(e, "  %s adsoac_s = %s;", t, scan_load(e, &r, src, "adsoac_b - 1"));
    line(e, "  for (long long adsoac_k = adsoac_b - 2; adsoac_k >= adsoac_a; adsoac_k--)");
    line(e, "    adsoac_s = %s;", combine(e, &r, xk, "adsoac_s"));
  }
  line(e, "  adsoac_part[adsoac_c] = adsoac_s;");
  line(e, "}");
  line(e, "%s adsoac_acc = %s;", t, tuple(e, &r, s->init));
  line(e, "for (int adsoac_d = 0; adsoac_d < ADSOAC_CHUNKS; adsoac_d++) {");
  line(e, "  int adsoac_c = %s;", rev ? "ADSOAC_CHUNKS - 1 - adsoac_d" : "adsoac_d");
  line(e, "  %s adsoac_p = adsoac_part[adsoac_c];", t);
  line(e, "  adsoac_part[adsoac_c] = adsoac_acc;");
  line(e, "  if (adsoac_have[adsoac_c]) adsoac_acc = %s;",
       rev ? combine(e, &r, "adsoac_p", "adsoac_acc") : combine(e, &r, "adsoac_acc", "adsoac_p"));
  line(e, "}");
  scan_total(e, &r, "adsoac_acc");
  bool keep = false;
  for (int f = 0; f < s->nf; f++) keep |= dst[f] != 0;
  if (!keep) { // only the total
    e->depth--;
    line(e, "}");
    return;
  }
  buf_puts(e->out, "#pragma omp parallel for\n");
  line(e, "for (int adsoac_c = 0; adsoac_c < ADSOAC_CHUNKS; adsoac_c++) {");
  line(e, "  long long adsoac_a = adsoac_n * adsoac_c / ADSOAC_CHUNKS, adsoac_b = adsoac_n * (adsoac_c + 1) / ADSOAC_CHUNKS;");
  line(e, "  %s adsoac_s = adsoac_part[adsoac_c];", t);
  if (!rev)
    line(e, "  for (long long adsoac_k = adsoac_a; adsoac_k < adsoac_b; adsoac_k++) {");
  else
    line(e, "  for (long long adsoac_k = adsoac_b - 1; adsoac_k >= adsoac_a; adsoac_k--) {");
  e->depth += 2;
  scan_store(e, &r, dst, "adsoac_k", "adsoac_s");
  line(e, "adsoac_s = %s;", rev ? combine(e, &r, xk, "adsoac_s") : combine(e, &r, "adsoac_s", xk));
  e->depth -= 2;
  line(e, "  }");
  line(e, "}");
  e->depth--;
  line(e, "}");
}

// CUDA: CUB's device-wide exclusive scan (runtime adsoac_scan); the fields of a struct value,
// kept in arrays of their own, through the functors of adsoac_scan_fields.
static void emit_scan_cuda(Emit *e, const Node *n) {
  Val src[n->u.par.scans[0].nf], dst[n->u.par.scans[0].nf];
  check_scan(e, n, src, dst);
  const Scan *s = &n->u.par.scans[0];
  Red r = scan_red(s);
  if (s->op == RED_USER) emit_user_op(e, n, &r);
  e->uses_fail = true;
  comment(e, n);
  if (s->nf == 1) {
    const char *ty = tname(e, e->f->vals[s->out[0]].type);
    bool read = e->uses[s->out[0]]; // an unread total is not declared: a local receives it
    if (!read) line(e, "{");
    if (!read) line(e, "  %s adsoac_total;", ty);
    line(e, "%sADSOAC_CHECK(adsoac_scan(%s, %s, (long long)%s, %s, &%s, %s, %s(), \"%s\"));",
         read ? "" : "  ", ref(e, src[0]), dst[0] ? ref(e, dst[0]) : arena_printf(e->a, "(%s *)NULL", ty),
         ref(e, n->u.par.hi), ref(e, s->init[0]), read ? ref(e, s->out[0]) : "adsoac_total",
         s->reverse ? "true" : "false", cub_op(e, &r), e->f->name);
    if (!read) line(e, "}");
    return;
  }
  // the functors that gather and scatter the fields
  const char *t = red_ctype(e, &r), *fx = arena_printf(e->a, "AdsoacFields%u_%s", s->lam->pa[0], e->f->name);
  Buf *out = e->out;
  e->out = &e->helpers;
  buf_printf(e->out, "struct %sLoad {\n", fx);
  for (int f = 0; f < s->nf; f++)
    buf_printf(e->out, "  const %s *f%d;\n", tname(e, e->f->vals[s->out[f]].type), f);
  buf_printf(e->out, "  __device__ %s operator()(long long k) const { return %s_make(", t, t);
  for (int f = 0; f < s->nf; f++) buf_printf(e->out, "%sf%d[k]", f ? ", " : "", f);
  buf_printf(e->out, "); }\n};\nstruct %sStore {\n", fx);
  for (int f = 0; f < s->nf; f++)
    if (dst[f]) buf_printf(e->out, "  %s *f%d;\n", tname(e, e->f->vals[s->out[f]].type), f);
  buf_printf(e->out, "  __device__ void operator()(long long k, %s v) const {", t);
  for (int f = 0; f < s->nf; f++)
    if (dst[f]) buf_printf(e->out, " f%d[k] = v.f%d;", f, f);
  buf_puts(e->out, " }\n};\n");
  e->out = out;
  line(e, "// %s, in %s order", scan_what(e, s, src), s->reverse ? "reverse" : "index");
  line(e, "{");
  e->depth++;
  Buf b = {0};
  for (int f = 0; f < s->nf; f++) buf_printf(&b, "%s%s", f ? ", " : "", ref(e, src[f]));
  line(e, "%sLoad adsoac_ld = {%s};", fx, b.data);
  b.len = 0;
  b.data[0] = '\0';
  for (int f = 0; f < s->nf; f++)
    if (dst[f]) buf_printf(&b, "%s%s", b.len ? ", " : "", ref(e, dst[f]));
  line(e, "%sStore adsoac_st = {%s};", fx, b.data);
  buf_free(&b);
  line(e, "%s adsoac_total;", t);
  bool keep = false;
  for (int f = 0; f < s->nf; f++) keep |= dst[f] != 0;
  line(e, "ADSOAC_CHECK(adsoac_scan_fields(adsoac_ld, adsoac_st, %s, (long long)%s, %s, &adsoac_total, %s, %s(), \"%s\"));",
       keep ? "true" : "false", ref(e, n->u.par.hi), tuple(e, &r, s->init),
       s->reverse ? "true" : "false", cub_op(e, &r), e->f->name);
  scan_total(e, &r, "adsoac_total");
  e->depth--;
  line(e, "}");
}

void emit_par(Emit *e, const Node *n) {
  if (n->u.par.nscans) {
    if (e->opt->target == TARGET_CUDA)
      emit_scan_cuda(e, n);
    else
      emit_scan_c(e, n);
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
  const char *el = arena_printf(e->a, "%s[%s]", ref(e, n->u.mem.arr), ref(e, n->u.mem.idx));
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

void emit_memory(Emit *e, const Node *n) {
  bool cuda = e->opt->target == TARGET_CUDA;
  const char *fn = e->f->name;
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
      line(e, "memcpy(%s, %s + %s, %s * sizeof *(%s));", save, arr, off, count(e, n->u.copy.n), save);
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
  default: UNREACHABLE();
  }
}
