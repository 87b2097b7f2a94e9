// emit/dot.c: --emit=dot, the SOAC dataflow graph of each marked function (Graphviz).
// Boxes are parameters, ellipses are parallel loops (with their clauses) and sequential
// loops; edges are array reads and writes and the scalars a loop hands to another.
#include <stdlib.h>
#include <string.h>

#include "emit.h"

typedef struct {
  const Fn *f;
  Buf *out;
  int *producer; // producer[v]: 1 + the id of the loop that defines scalar v, or 0
  int nloops;
  int loop;                    // the loop whose edges are being written
  unsigned char *sr, *sw, *ss; // its edges so far: arrays read, written; scalars
} Dot;

static const char *clauses(const Node *n, char *buf, size_t cap) {
  size_t k = 0;
  buf[0] = 0;
  if (!n->u.par.nreds && !n->u.par.nscans && !n->u.par.nhists)
    return snprintf(buf, cap, "map"), buf;
  for (int r = 0; r < n->u.par.nreds && k < cap; r++)
    k += (size_t)snprintf(buf + k, cap - k, "%sreduce(%s: %s)", k ? "\\n" : "",
                          n->u.par.reds[r].user_fn ? n->u.par.reds[r].user_fn
                                                   : redop_name(n->u.par.reds[r].op),
                          n->u.par.reds[r].var);
  for (int r = 0; r < n->u.par.nscans && k < cap; r++)
    k += (size_t)snprintf(buf + k, cap - k, "%sscan(%s: %s)", k ? "\\n" : "",
                          n->u.par.scans[r].user_fn ? n->u.par.scans[r].user_fn
                                                    : redop_name(n->u.par.scans[r].op),
                          n->u.par.scans[r].var);
  for (int r = 0; r < n->u.par.nhists && k < cap; r++)
    k += (size_t)snprintf(buf + k, cap - k, "%shist(%s: %s)", k ? "\\n" : "",
                          n->u.par.hists[r].user_fn ? n->u.par.hists[r].user_fn
                                                    : redop_name(n->u.par.hists[r].op),
                          n->u.par.hists[r].var);
  return buf;
}

static void edge_val(Dot *d, Val v) {
  if (!v || d->ss[v]) return;
  int p = d->producer[v];
  if (p) {
    d->ss[v] = 1;
    const char *h = d->f->vals[v].hint;
    buf_printf(d->out, "    \"%s.l%d\" -> \"%s.l%d\" [style=dashed, label=\"%s\"];\n", d->f->name,
               p - 1, d->f->name, d->loop, h ? h : "t");
  }
}

// The edges of a statement of loop d->loop (the walk goes into its blocks).
static WalkNext edges_node(Node *n, void *ctx) {
  Dot *d = ctx;
  const char *fn = d->f->name;
  switch (n->kind) {
  case IR_READ:
    if (!d->sr[n->u.mem.arr]) {
      d->sr[n->u.mem.arr] = 1;
      buf_printf(d->out, "    \"%s.v%u\" -> \"%s.l%d\";\n", fn, n->u.mem.arr, fn, d->loop);
    }
    break;
  case IR_WRITE: case IR_UPDATE: case IR_ACC:
    if (!d->sw[n->u.mem.arr]) {
      d->sw[n->u.mem.arr] = 1;
      buf_printf(d->out, "    \"%s.l%d\" -> \"%s.v%u\";\n", fn, d->loop, fn, n->u.mem.arr);
    }
    edge_val(d, n->u.mem.v);
    break;
  case IR_UNOP: edge_val(d, n->u.un.a); break;
  case IR_BINOP: edge_val(d, n->u.bin.a), edge_val(d, n->u.bin.b); break;
  case IR_CALL: edge_val(d, n->u.call.a), edge_val(d, n->u.call.b), edge_val(d, n->u.call.c); break;
  case IR_CAST: edge_val(d, n->u.cast.a); break;
  case IR_EXT:
    for (int k = 0; k < n->u.ext.nargs; k++) edge_val(d, n->u.ext.args[k]);
    break;
  case IR_IF: edge_val(d, n->u.ifs.cond); break;
  case IR_PAR:
    for (int r = 0; r < n->u.par.nreds; r++)
      for (int f = 0; f < n->u.par.reds[r].nf; f++) edge_val(d, n->u.par.reds[r].init[f]);
    break;
  case IR_CONST: case IR_LOOP: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN:
    break;
  }
  return WALK_INTO;
}

static void edges_yields(Block *b, void *d) {
  for (int i = 0; i < b->nyields; i++) edge_val(d, b->yields[i]);
}

// One graph node per top-level loop (parallel or sequential), in program order.
static void loops(Dot *d, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_IF) {
      loops(d, n->u.ifs.then);
      loops(d, n->u.ifs.els);
      continue;
    }
    if (n->kind != IR_PAR && n->kind != IR_LOOP) {
      // host scalar code passes on where its operands came from
      Val ops[3] = {0, 0, 0};
      if (n->kind == IR_UNOP) ops[0] = n->u.un.a;
      if (n->kind == IR_BINOP) ops[0] = n->u.bin.a, ops[1] = n->u.bin.b;
      if (n->kind == IR_CALL) ops[0] = n->u.call.a, ops[1] = n->u.call.b, ops[2] = n->u.call.c;
      if (n->kind == IR_CAST) ops[0] = n->u.cast.a;
      for (int k = 0; k < 3 && n->out; k++)
        if (ops[k] && d->producer[ops[k]]) d->producer[n->out] = d->producer[ops[k]];
      continue;
    }
    int id = d->nloops++;
    char lbl[512];
    if (n->kind == IR_PAR)
      clauses(n, lbl, sizeof lbl);
    else
      snprintf(lbl, sizeof lbl, "sequential loop");
    buf_printf(d->out, "    \"%s.l%d\" [shape=ellipse, label=\"%s\\nline %u\"];\n", d->f->name, id,
               lbl, n->loc.line);
    size_t nv = (size_t)d->f->nvals;
    d->loop = id;
    d->sr = calloc(nv, 1), d->sw = calloc(nv, 1), d->ss = calloc(nv, 1);
    ir_walk_node(n, &(Walker){.pre = edges_node, .block = edges_yields, .ctx = d});
    free(d->sr), free(d->sw), free(d->ss);
    for (int r = 0; n->kind == IR_PAR && r < n->u.par.nreds; r++)
      for (int f = 0; f < n->u.par.reds[r].nf; f++) d->producer[n->u.par.reds[r].out[f]] = id + 1;
    for (int r = 0; n->kind == IR_PAR && r < n->u.par.nscans; r++)
      for (int f = 0; f < n->u.par.scans[r].nf; f++) d->producer[n->u.par.scans[r].out[f]] = id + 1;
    for (int r = 0; n->kind == IR_LOOP && r < n->u.loop.ncarry; r++)
      d->producer[n->u.loop.outs[r]] = id + 1;
  }
}

void emit_dot(const Prog *prog, Buf *out) {
  buf_puts(out, "digraph adsoac {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n");
  for (int m = 0; m < prog->nmarked; m++) {
    const Fn *f = prog->marked[m].primal;
    Dot d = {f, out, calloc((size_t)f->nvals, sizeof(int))};
    buf_printf(out, "  subgraph \"cluster_%s\" {\n    label=\"%s (%s:%u)\";\n", f->name, f->name,
               f->loc.file ? f->loc.file : "", f->loc.line);
    for (int i = 0; i < f->nparams; i++) {
      const Param *p = &f->params[i];
      if (!p->is_array) continue;
      buf_printf(out, "    \"%s.v%u\" [shape=box, label=\"%s%s\"];\n", f->name, p->val, p->name,
                 p->active ? (p->written ? "\\n(output)" : "\\n(active input)") : "");
    }
    loops(&d, f->body);
    buf_puts(out, "  }\n");
    free(d.producer);
  }
  buf_puts(out, "}\n");
}
