// ir/ir_print.c: the stable text form of the IR (--emit=ir, golden tests).
//
//   fn dot(n: int, x: const double * in, y: const double * in) -> double {
//     s.4: double = const 0
//     s.7: double = par i.5 in [c.6, n.1) reduce(+: s.4 <- t.9)  # reduce(+: s) at line 5
//       ...
//   }
#include <string.h>

#include "ir.h"

typedef struct {
  const Fn *f;
  Buf *out;
  int depth;
} Printer;

static const char *vname(const Printer *p, Val v, char *buf, size_t n) {
  if (!v) return "0";
  const char *h = p->f->vals[v].hint;
  snprintf(buf, n, "%s.%u", h ? h : "t", v);
  return buf;
}

#define V(v) vname(p, (v), (char[64]){0}, 64)

static void indent(Printer *p) {
  for (int i = 0; i < p->depth; i++) buf_puts(p->out, "  ");
}

static const char *tname(const Printer *p, Val v) {
  const Type *t = p->f->vals[v].type;
  static char b[128];
  if (t->kind == TY_PTR)
    snprintf(b, sizeof b, "%s%s *", t->elem_const ? "const " : "", t->elem->name);
  else
    snprintf(b, sizeof b, "%s", t->name);
  return b;
}

static void print_block(Printer *p, const Block *b);

static void print_yields(Printer *p, const Block *b) {
  if (!b->nyields) return;
  indent(p);
  buf_puts(p->out, "yield");
  for (int i = 0; i < b->nyields; i++) buf_printf(p->out, "%s %s", i ? "," : "", V(b->yields[i]));
  buf_puts(p->out, "\n");
}

static void print_vals(Printer *p, const Val *vs, int n) {
  for (int i = 0; i < n; i++) buf_printf(p->out, "%s%s", i ? ", " : "", V(vs[i]));
}

static void print_tuple(Printer *p, const Val *vs, int n) {
  if (n > 1) buf_puts(p->out, "(");
  for (int i = 0; i < n; i++) buf_printf(p->out, "%s%s", i ? ", " : "", V(vs[i]));
  if (n > 1) buf_puts(p->out, ")");
}

//   op \(a, ka) (b, kb) { ... yield r, k }
static void print_lambda(Printer *p, const char *what, const Lambda *l) {
  if (!l) return;
  indent(p);
  buf_printf(p->out, "%s \\", what);
  print_tuple(p, l->pa, l->nf);
  buf_puts(p->out, " ");
  print_tuple(p, l->pb, l->nf);
  buf_puts(p->out, " {\n");
  p->depth++;
  print_block(p, l->body);
  p->depth--;
  indent(p);
  buf_puts(p->out, "}\n");
}

// The operators of user-defined clauses, after the loop's header.
static void print_lambdas(Printer *p, const Node *n) {
  for (int r = 0; r < n->u.par.nreds; r++) {
    print_lambda(p, "inverse", n->u.par.reds[r].inv);
    print_lambda(p, "op", n->u.par.reds[r].lam);
  }
  for (int k = 0; k < n->u.par.nscans; k++) print_lambda(p, "op", n->u.par.scans[k].lam);
  for (int k = 0; k < n->u.par.nhists; k++) print_lambda(p, "op", n->u.par.hists[k].lam);
}

static void print_par(Printer *p, const Node *n) {
  buf_printf(p->out, "par %s in [%s, %s)", V(n->u.par.idx), V(n->u.par.lo), V(n->u.par.hi));
  if (n->u.par.color) buf_printf(p->out, " color(%s)", V(n->u.par.color));
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    buf_printf(p->out, " reduce(%s: ", red->op == RED_USER ? red->user_fn : redop_name(red->op));
    print_tuple(p, red->init, red->nf);
    buf_puts(p->out, " <- ");
    print_tuple(p, n->u.par.body->yields + red->slot, red->nf);
    buf_puts(p->out, " => ");
    print_tuple(p, red->out, red->nf);
    buf_puts(p->out, ")");
  }
  for (int k = 0; k < n->u.par.nscans; k++) {
    const Scan *sc = &n->u.par.scans[k];
    buf_printf(p->out, " scan%s(%s: ", sc->reverse ? "_reverse" : "", sc->op == RED_USER ? sc->user_fn : redop_name(sc->op));
    print_tuple(p, sc->init, sc->nf);
    buf_puts(p->out, " <- ");
    print_tuple(p, n->u.par.body->yields + sc->slot, sc->nf);
    buf_puts(p->out, ", excl ");
    print_tuple(p, sc->excl, sc->nf);
    buf_puts(p->out, " => ");
    print_tuple(p, sc->out, sc->nf);
    buf_puts(p->out, ")");
  }
  for (int k = 0; k < n->u.par.nhists; k++) {
    const Hist *h = &n->u.par.hists[k];
    buf_printf(p->out, " hist%d(%s: %s[%s : +%s])", k,
               h->op == RED_USER ? h->user_fn : redop_name(h->op), V(h->arr), V(h->lo), V(h->len));
    if (h->win) buf_printf(p->out, " winners(%s, %lld sites)", V(h->win), h->nsites);
  }
  buf_printf(p->out, "  # line %u", n->loc.line);
  if (n->u.par.pragma) buf_printf(p->out, ": %s", n->u.par.pragma);
  buf_puts(p->out, " {\n");
  p->depth++;
  print_lambdas(p, n);
  print_block(p, n->u.par.body);
  p->depth--;
  indent(p);
  buf_puts(p->out, "}\n");
}

static void print_node(Printer *p, const Node *n) {
  indent(p);
  if (n->out) buf_printf(p->out, "%s: %s = ", V(n->out), tname(p, n->out));
  switch (n->kind) {
  case IR_CONST:
    if (ty_is_float(p->f->vals[n->out].type))
      buf_printf(p->out, "const %.17g\n", n->u.cst.f);
    else
      buf_printf(p->out, "const %lld\n", n->u.cst.i);
    return;
  case IR_UNOP: buf_printf(p->out, "%s%s\n", unop_c(n->u.un.op), V(n->u.un.a)); return;
  case IR_BINOP:
    buf_printf(p->out, "%s %s %s\n", V(n->u.bin.a), binop_c(n->u.bin.op), V(n->u.bin.b));
    return;
  case IR_CALL:
    buf_printf(p->out, "%s(%s", math_name(n->u.call.fn, p->f->vals[n->out].type), V(n->u.call.a));
    if (n->u.call.b) buf_printf(p->out, ", %s", V(n->u.call.b));
    if (n->u.call.c) buf_printf(p->out, ", %s", V(n->u.call.c));
    buf_puts(p->out, ")\n");
    return;
  case IR_EXT: {
    const ExtFn *e = n->u.ext.fn;
    int np = e->nparams;
    ExtMode m = n->u.ext.mode;
    buf_printf(p->out, "ext %s(", m == EXT_CALL ? e->name : m == EXT_VJP ? e->vjp : e->jvp);
    print_vals(p, n->u.ext.args, np);
    if (m != EXT_CALL) {
      buf_puts(p->out, m == EXT_VJP ? "; seed " : "; tangents ");
      print_vals(p, n->u.ext.args + np, n->u.ext.nargs - np);
    }
    buf_puts(p->out, ")");
    if (n->u.ext.nouts) {
      buf_puts(p->out, m == EXT_VJP ? " => adjoints " : " => tangent ");
      print_vals(p, n->u.ext.outs, n->u.ext.nouts);
    }
    buf_puts(p->out, "\n");
    return;
  }
  case IR_CAST: buf_printf(p->out, "cast %s\n", V(n->u.cast.a)); return;
  case IR_READ: buf_printf(p->out, "read %s[%s]\n", V(n->u.mem.arr), V(n->u.mem.idx)); return;
  case IR_WRITE:
    buf_printf(p->out, "write %s[%s] = %s\n", V(n->u.mem.arr), V(n->u.mem.idx), V(n->u.mem.v));
    return;
  case IR_UPDATE:
    buf_printf(p->out, "update hist%d %s[%s] <- %s\n", n->u.mem.hist, V(n->u.mem.arr),
               V(n->u.mem.idx), V(n->u.mem.v));
    return;
  case IR_ACC:
    buf_printf(p->out, "acc%s %s[%s] += %s\n", n->u.mem.mode == ACC_ATOMIC ? "[atomic]" : n->u.mem.mode == ACC_COLOR ? "[color]"
               : n->u.mem.mode == ACC_WINDOW ? "[window]" : "",
               V(n->u.mem.arr), V(n->u.mem.idx), V(n->u.mem.v));
    return;
  case IR_IF:
    if (n->u.ifs.nouts) {
      print_vals(p, n->u.ifs.outs, n->u.ifs.nouts);
      buf_puts(p->out, " = ");
    }
    buf_printf(p->out, "if %s {\n", V(n->u.ifs.cond));
    p->depth++;
    print_block(p, n->u.ifs.then);
    p->depth--;
    indent(p);
    buf_puts(p->out, "} else {\n");
    p->depth++;
    print_block(p, n->u.ifs.els);
    p->depth--;
    indent(p);
    buf_puts(p->out, "}\n");
    return;
  case IR_LOOP:
    if (n->u.loop.note) {
      buf_printf(p->out, "# %s\n", n->u.loop.note);
      indent(p);
    }
    if (n->u.loop.ncarry) {
      print_vals(p, n->u.loop.outs, n->u.loop.ncarry);
      buf_puts(p->out, " = ");
    }
    buf_printf(p->out, "loop %s in [%s, %s)", V(n->u.loop.idx), V(n->u.loop.lo), V(n->u.loop.hi));
    if (n->u.loop.stripmine) buf_printf(p->out, " stripmine(%d)", n->u.loop.stripmine);
    if (n->u.loop.exit) buf_printf(p->out, " until(%s)", V(n->u.loop.exit));
    if (n->u.loop.ncarry) {
      buf_puts(p->out, " carry(");
      for (int i = 0; i < n->u.loop.ncarry; i++)
        buf_printf(p->out, "%s%s = %s", i ? ", " : "", V(n->u.loop.params[i]), V(n->u.loop.init[i]));
      buf_puts(p->out, ")");
    }
    buf_puts(p->out, " {\n");
    p->depth++;
    print_block(p, n->u.loop.body);
    p->depth--;
    indent(p);
    buf_puts(p->out, "}\n");
    return;
  case IR_PAR: print_par(p, n); return;
  case IR_ALLOC:
    buf_printf(p->out, "alloc%s%s %s\n", n->u.alloc.tape ? " tape" : "",
               n->u.alloc.nozero ? " unzeroed" : "", V(n->u.alloc.n));
    return;
  case IR_SORT:
    buf_printf(p->out, "sort %s[0:%s] = order of %s (keys 0..%s)\n", V(n->u.copy.dst),
               V(n->u.copy.n), V(n->u.copy.src), V(n->u.copy.off));
    return;
  case IR_COPY:
    if (n->u.copy.doff)
      buf_printf(p->out, "%s %s[%s:+%s] %s %s[%s:]\n", n->u.copy.swap ? "swap" : "copy",
                 V(n->u.copy.dst), V(n->u.copy.doff), V(n->u.copy.n),
                 n->u.copy.swap ? "<->" : "=", V(n->u.copy.src), V(n->u.copy.off));
    else
      buf_printf(p->out, "%s %s[0:%s] %s %s[%s:]\n", n->u.copy.swap ? "swap" : "copy",
                 V(n->u.copy.dst), V(n->u.copy.n), n->u.copy.swap ? "<->" : "=",
                 V(n->u.copy.src), V(n->u.copy.off));
    return;
  case IR_COLL: {
    static const char *const mode[] = {"", " vjp", " jvp"};
    const char *k = coll_name(n->u.coll.kind);
    if (n->out) { // (its result printed above)
      buf_printf(p->out, "%s(%s)\n", k, V(n->u.coll.comm));
      return;
    }
    buf_printf(p->out, "%s%s", k, mode[n->u.coll.mode]);
    if (n->u.coll.kind == COLL_ALLREDUCE || n->u.coll.kind == COLL_REDUCE)
      buf_printf(p->out, "(%s)", redop_name(n->u.coll.op));
    if (coll_rooted(n->u.coll.kind)) buf_printf(p->out, "(root %s)", V(n->u.coll.root));
    if (n->u.coll.mode == COLL_CALL)
      buf_printf(p->out, " %s = %s", V(n->u.coll.out), V(n->u.coll.in));
    else if (n->u.coll.mode == COLL_VJP)
      buf_printf(p->out, " %s += of %s given %s", V(n->u.coll.in_d), V(n->u.coll.in), V(n->u.coll.out_d));
    else
      buf_printf(p->out, " %s = of %s along %s", V(n->u.coll.out_d), V(n->u.coll.in), V(n->u.coll.in_d));
    buf_printf(p->out, " [0:%s] on %s\n", V(n->u.coll.count), V(n->u.coll.comm));
    return;
  }
  case IR_FREE: buf_printf(p->out, "free%s %s\n", n->u.copy.tape ? " tape" : "", V(n->u.copy.dst)); return;
  case IR_RETURN:
    for (int k = 0; k < n->u.ret.ng; k++)
      buf_printf(p->out, "%s(%s = %s)", k ? " " : "", n->u.ret.gname[k], V(n->u.ret.gv[k]));
    buf_printf(p->out, "%sreturn %s\n", n->u.ret.ng ? " " : "", n->u.ret.v ? V(n->u.ret.v) : "");
    return;
  }
  UNREACHABLE();
}

static void print_block(Printer *p, const Block *b) {
  for (int i = 0; i < b->n; i++) print_node(p, b->stmts[i]);
  print_yields(p, b);
}

void ir_print_fn(const Fn *f, Buf *out) {
  Printer pr = {f, out, 0}, *p = &pr;
  buf_printf(out, "fn %s(", f->name);
  for (int i = 0; i < f->nparams; i++) {
    const Param *prm = &f->params[i];
    buf_printf(out, "%s%s: %s", i ? ", " : "", V(prm->val), tname(p, prm->val));
    if (prm->is_array && prm->is_float) buf_puts(out, prm->written ? " out" : " in");
    if (prm->is_float && !prm->active) buf_puts(out, " inactive");
  }
  buf_printf(out, ") -> %s {\n", f->ret->name);
  p->depth = 1;
  print_block(p, f->body);
  buf_puts(out, "}\n");
}
