// emit/out.c: writing the output: lines, the C spelling of types and operands (constants
// inline), and the declarations hoisted to the top of a body.
#include <math.h>
#include <string.h>

#include "emit_internal.h"

void line(Emit *e, const char *fmt, ...) {
  for (int i = 0; i < e->depth; i++) buf_puts(e->out, "  ");
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(e->out, fmt, ap);
  va_end(ap);
  buf_puts(e->out, "\n");
}

const char *tname(Emit *e, const Type *t) {
  return ty_c_name(e->a, t);
}

static const char *literal(Emit *e, const Node *c) {
  const Type *t = e->f->vals[c->out].type;
  if (!ty_is_float(t)) {
    if (!strcmp(t->name, "int")) return arena_printf(e->a, "%lld", c->u.cst.i);
    return arena_printf(e->a, "(%s)%lld", t->name, c->u.cst.i);
  }
  double v = c->u.cst.f;
  bool f32 = t->kind == TY_FLOAT;
  if (isinf(v)) return v > 0 ? (f32 ? "INFINITY" : "(double)INFINITY") : (f32 ? "-INFINITY" : "-(double)INFINITY");
  const char *s = arena_printf(e->a, f32 ? "%.9g" : "%.17g", v);
  if (!strpbrk(s, ".en")) s = arena_printf(e->a, "%s.0", s);
  return f32 ? arena_printf(e->a, "%sf", s) : s;
}

// A value as an operand: constants are written inline.
const char *ref(Emit *e, Val v) {
  const Node *d = e->def[v];
  if (d && d->kind == IR_CONST) return literal(e, d);
  return names_get(e->nm, v);
}

// What the runtime's functions take last: on CUDA the call's context (AdsoacCx: its name,
// stream and workspace), on C the function's name.
const char *where(Emit *e) {
  if (e->opt->target == TARGET_CUDA) return "adsoac_cx";
  return arena_printf(e->a, "\"%s\"", e->f->name);
}

void note_sync(Emit *e, Loc loc, const char *why) {
  if (!e->nsyncs++) e->sync_why = why;
  diag_remark(loc, "%s_async: the host waits for the stream here: it %s", e->f->name, why);
}

// Element idx of array arr, an lvalue: arr[idx], or p[idx].f for the array of field f of
// an array of structs p (a struct parameter: ValInfo.parent).
const char *elem_at(Emit *e, Val arr, const char *idx) {
  Val par = e->f->vals[arr].parent;
  if (!par) return arena_printf(e->a, "%s[%s]", ref(e, arr), idx);
  const Type *st = e->f->vals[par].type->elem;
  IR_ASSERT(e->f->vals[par].type->kind == TY_PTR);
  return arena_printf(e->a, "%s[%s].%s", names_get(e->nm, par), idx,
                      st->fnames[e->f->vals[arr].field]);
}

// The address of element off of arr and the distance between its elements in bytes (a field
// of an array of structs: the struct's size), for the copies of IR_COPY.
const char *elem_addr(Emit *e, Val arr, const char *off, const char **stride) {
  Val par = e->f->vals[arr].parent;
  if (!par) {
    *stride = arena_printf(e->a, "sizeof *%s", ref(e, arr));
    return arena_printf(e->a, "%s + %s", ref(e, arr), off);
  }
  *stride = arena_printf(e->a, "sizeof *%s", names_get(e->nm, par));
  return arena_printf(e->a, "&%s", elem_at(e, arr, off));
}

static WalkNext note_def(Node *n, void *def) {
  if (n->out) ((Node **)def)[n->out] = n;
  return WALK_INTO;
}

// e->def[v]: the statement that defines v, in the operators' bodies too.
void note_defs(Emit *e, const Block *b) {
  ir_walk(b, &(Walker){.pre = note_def, .lambdas = true, .ctx = e->def});
}

// The declaration of a hoisted value.  One defined in a branch gets an initializer: reverse
// code reads it in a later if on the same condition (the IR verifier checks that it does so
// only where the definition ran), which a C compiler cannot see.
static void declare(Emit *e, Val v, bool in_branch) {
  const Type *t = e->f->vals[v].type;
  if (e->host && e->on_dev && e->on_dev[v]) { // (its cell, where the code refers to it: emit_dev.c)
    if (e->cell_used[v]) line(e, "%s *%s_dev = NULL;", tname(e, t), names_get(e->nm, v));
    return;
  }
  const char *init = !in_branch ? "" : t->kind == TY_STRUCT ? " = {0}" : t->kind == TY_PTR ? " = NULL" : " = 0";
  line(e, "%s%s%s%s;", tname(e, t), t->kind == TY_PTR ? "" : " ", names_get(e->nm, v), init);
}

static void declare_block(Emit *e, const Block *b, bool all, bool in_branch) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->out && n->kind != IR_CONST && n->kind != IR_ALLOC && all) declare(e, n->out, in_branch);
    for (int k = 0; n->kind == IR_EXT && all && k < n->u.ext.nouts; k++)
      declare(e, n->u.ext.outs[k], in_branch);
    if (n->kind == IR_IF) {
      for (int k = 0; k < n->u.ifs.nouts; k++) declare(e, n->u.ifs.outs[k], in_branch);
      declare_block(e, n->u.ifs.then, true, true);
      declare_block(e, n->u.ifs.els, true, true);
    }
    if (n->kind == IR_LOOP) {
      for (int k = 0; all && k < n->u.loop.ncarry; k++) {
        declare(e, n->u.loop.params[k], in_branch);
        if (e->uses[n->u.loop.outs[k]]) declare(e, n->u.loop.outs[k], in_branch);
      }
      declare_block(e, n->u.loop.body, all, in_branch);
    }
    if (n->kind == IR_PAR && all)
      for (int r = 0; r < n->u.par.nreds; r++)
        for (int f = 0; f < n->u.par.reds[r].nf; f++)
          if (e->uses[n->u.par.reds[r].out[f]] || n->u.par.reds[r].nf == 1)
            declare(e, n->u.par.reds[r].out[f], in_branch);
    if (n->kind == IR_PAR && all)
      for (int r = 0; r < n->u.par.nscans; r++)
        for (int f = 0; f < n->u.par.scans[r].nf; f++)
          if (e->uses[n->u.par.scans[r].out[f]]) declare(e, n->u.par.scans[r].out[f], in_branch);
  }
}

// Values whose declarations go at the top of a body: on the host, all of them (CUDA code
// is C++, and the error path jumps over them); in a loop body, those defined inside ifs.
void declare_hoisted(Emit *e, const Block *b, bool all) {
  declare_block(e, b, all, false);
}

// The loop's pragma, and where it stands, as a comment line.
void pragma_comment(Emit *e, const Node *n) {
  line(e, "// #pragma adsoac %s (%s:%u)", n->u.par.pragma ? n->u.par.pragma : "map",
       e->opt->input_name, n->loc.line);
}
