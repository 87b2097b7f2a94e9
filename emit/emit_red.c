// emit/emit_red.c: the operators of reductions, scans and histograms in C: combining two
// values, neutral elements, the struct types of tuples, and declared operators as functions
// (and CUB functors) before the function that uses them.
#include <string.h>

#include "emit_internal.h"

const char *zero(Emit *e, const Type *t) {
  return ty_is_float(t) ? (t->kind == TY_FLOAT ? "0.0f" : "0.0") : arena_printf(e->a, "(%s)0", t->name);
}

static Type *red_type(Emit *e, const Red *r) {
  return e->f->vals[r->out[0]].type;
}

// A reduction over a tuple (the fields of a struct value, or a value and an index) runs on a
// struct type of the generated code.
const char *tup_name(Emit *e, const Red *r) {
  return arena_printf(e->a, "adsoac_tup%u_%s", r->lam->pa[0], e->f->name);
}

const char *red_ctype(Emit *e, const Red *r) {
  return r->nf > 1 ? tup_name(e, r) : tname(e, red_type(e, r));
}

// The tuple of values vs[0 .. nf) as an expression of the reduction's type.
const char *tuple(Emit *e, const Red *r, const Val *vs) {
  if (r->nf == 1) return ref(e, vs[0]);
  Buf b = {.arena = e->a};
  buf_printf(&b, "%s_make(", tup_name(e, r));
  for (int f = 0; f < r->nf; f++) buf_printf(&b, "%s%s", f ? ", " : "", ref(e, vs[f]));
  buf_puts(&b, ")");
  const char *s = arena_strdup(e->a, b.data);
  buf_free(&b);
  return s;
}

void check_red(const Node *n, const Red *r) {
  if ((r->op == RED_USER && !r->commutative) || (r->nf != 1 && r->op != RED_USER))
    diag_error(n->loc, NULL, "code generation for reduce(%s: ...) is not supported yet",
               r->user_fn ? r->user_fn : redop_name(r->op));
}

// The neutral element of a reduction's partial results.
const char *neutral(Emit *e, const Red *r) {
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

void finish_red(Emit *e, const Red *r, const char *partial) {
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
void emit_user_op(Emit *e, const Node *n, const Red *r) {
  // once per function: a loop emitted twice (a scan's passes) or copies of one (f_jvp's)
  // share the operator
  if (e->ops_fn != e->f) {
    e->ops_done = ARENA_ARRAY(e->a, unsigned char, e->f->nvals);
    e->ops_fn = e->f;
  }
  if (e->ops_done[r->lam->pa[0]]) return;
  e->ops_done[r->lam->pa[0]] = 1;
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
  e->block(e, l->body);
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

bool has_user_op(const Node *n) {
  for (int r = 0; r < n->u.par.nreds; r++)
    if (n->u.par.reds[r].op == RED_USER) return true;
  return false;
}

// "a OP b" as a C expression; for min and max a tie keeps a.
const char *combine(Emit *e, const Red *r, const char *a, const char *b) {
  switch (r->op) {
  case RED_ADD: return arena_printf(e->a, "%s + %s", a, b);
  case RED_MUL: return arena_printf(e->a, "%s * %s", a, b);
  case RED_MIN: return arena_printf(e->a, "%s < %s ? %s : %s", b, a, b, a);
  case RED_MAX: return arena_printf(e->a, "%s > %s ? %s : %s", b, a, b, a);
  case RED_USER: return arena_printf(e->a, "%s(%s, %s)", user_op(e, r), a, b);
  }
  UNREACHABLE();
}

const char *omp_op(const Red *r) {
  return r->op == RED_ADD ? "+" : r->op == RED_MUL ? "*" : r->op == RED_MIN ? "min" : "max";
}

const char *cub_op(Emit *e, const Red *r) {
  if (r->op == RED_USER) return arena_printf(e->a, "AdsoacOp%u_%s", r->lam->pa[0], e->f->name);
  return r->op == RED_ADD ? "AdsoacSum" : r->op == RED_MUL ? "AdsoacProd"
         : r->op == RED_MIN ? "AdsoacMin" : "AdsoacMax";
}
