// emit/emit_dev.c: the CUDA target's scalars that stay on the device.  A reduction's result,
// an element that host code reads, and the arithmetic on them would each cost the host a
// wait for the stream (a copy to the host) if the host computed with them.  Where every use
// of such a value can take it from device memory (a kernel's argument, a reduction's initial
// value, an element written or added to, the function's result, a carried value of a
// sequential loop, more arithmetic), it lives in a cell of device memory instead: the
// reduction's last kernel writes it there, kernels read it, and the arithmetic on it runs in
// kernels of one thread (emit.c emit_dev_run).  Uses that need it on the host (a loop's
// bounds, a condition, an index, a size, a call) keep it on the host: copied there where it
// is made, the stream waited for.
#include <string.h>

#include "emit_internal.h"

typedef struct {
  Emit *e;
  unsigned char *host; // host[v]: a use of v needs it on the host
  unsigned char *src;  // src[v]: made on the device (a reduction's result, a host-level read)
  unsigned char *dev;  // the plan so far (Emit.on_dev)
  bool changed;
} Plan;

static bool cell_type(const Type *t) {
  return ty_is_float(t);
}

static void need_use(Val *v, void *ctx) {
  ((Plan *)ctx)->host[*v] = 1;
}

static void need_all(Plan *p, Node *n) {
  ir_node_uses(n, need_use, p);
}

static WalkNext need_in(Node *n, void *ctx) {
  need_all(ctx, n);
  return WALK_INTO;
}

static void need_yields(Block *b, void *ctx) {
  for (int i = 0; i < b->nyields; i++)
    if (b->yields[i]) need_use(&b->yields[i], ctx);
}

static void need(Plan *p, Val v) {
  if (v) p->host[v] = 1;
}

// The uses that need a value on the host, whatever the plan (host-level statements; the
// bodies of parallel loops are kernels, which take any value either way).
static void host_uses(Plan *p, const Block *b) {
  const Fn *f = p->e->f;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    switch (n->kind) {
    case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: break; // (the plan's)
    case IR_READ:
      need(p, n->u.mem.idx);
      if (cell_type(f->vals[n->out].type)) p->src[n->out] = 1;
      break;
    case IR_WRITE: case IR_ACC:
      need(p, n->u.mem.idx);
      if (f->vals[n->u.mem.v].type->kind != f->vals[n->u.mem.arr].type->elem->kind) need(p, n->u.mem.v);
      break;
    case IR_IF:
      need(p, n->u.ifs.cond);
      host_uses(p, n->u.ifs.then);
      host_uses(p, n->u.ifs.els);
      need_yields(n->u.ifs.then, p);
      need_yields(n->u.ifs.els, p);
      break;
    case IR_LOOP: {
      need(p, n->u.loop.lo), need(p, n->u.loop.hi), need(p, n->u.loop.exit);
      host_uses(p, n->u.loop.body);
      int nc = n->u.loop.ncarry;
      const Val *par = n->u.loop.params, *y = n->u.loop.body->yields;
      bool temps = false; // (carried values exchanged: kept on the host)
      for (int k = 0; k < nc; k++)
        for (int j = 0; j < nc; j++) temps |= j != k && y[k] == par[j];
      for (int k = 0; temps && k < nc; k++) need(p, par[k]), need(p, y[k]), need(p, n->u.loop.init[k]);
      break;
    }
    case IR_PAR:
      if (n->u.par.nscans) { // (a scan: on the host's side but its total, of one field)
        need_all(p, n);
        ir_walk(n->u.par.body, &(Walker){.pre = need_in, .block = need_yields, .ctx = p});
        const Scan *sc = &n->u.par.scans[0];
        if (n->u.par.nscans == 1 && sc->nf == 1 && cell_type(f->vals[sc->out[0]].type)) p->src[sc->out[0]] = 1;
        break;
      }
      need(p, n->u.par.lo), need(p, n->u.par.hi), need(p, n->u.par.color);
      for (int k = 0; k < n->u.par.nwins; k++) need(p, n->u.par.wins[k]);
      for (int k = 0; k < n->u.par.nhists; k++)
        need(p, n->u.par.hists[k].lo), need(p, n->u.par.hists[k].len);
      for (int r = 0; r < n->u.par.nreds; r++) {
        const Red *rd = &n->u.par.reds[r];
        for (int k = 0; rd->ne && k < rd->nf; k++) need(p, rd->ne[k]);
        if (rd->nf == 1 && cell_type(f->vals[rd->out[0]].type) &&
            f->vals[rd->init[0]].type->kind == f->vals[rd->out[0]].type->kind)
          p->src[rd->out[0]] = 1;
        else
          for (int k = 0; k < rd->nf; k++) need(p, rd->init[k]);
      }
      break;
    case IR_RETURN:
      if (n->u.ret.v && f->vals[n->u.ret.v].type->kind != f->ret->kind) need(p, n->u.ret.v);
      for (int k = 0; k < n->u.ret.ng; k++) need(p, n->u.ret.gv[k]);
      break;
    case IR_EXT: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL:
      need_all(p, n);
      break;
    }
  }
}

static void set_dev(Plan *p, Val v, bool d) {
  if (v && p->dev[v] != d) p->dev[v] = d, p->changed = true;
}

// v stays where it is made only if dev; a use that takes it on the host makes it a host value.
static void to_host(Plan *p, Val v) {
  if (v && p->dev[v] && !p->host[v]) p->host[v] = 1, p->changed = true;
}

// The operands of arithmetic (unop, binop, call, cast), 0 where it has fewer.
static void pure_operands(const Node *n, Val vs[3]) {
  vs[0] = vs[1] = vs[2] = 0;
  if (n->kind == IR_UNOP) vs[0] = n->u.un.a;
  if (n->kind == IR_BINOP) vs[0] = n->u.bin.a, vs[1] = n->u.bin.b;
  if (n->kind == IR_CALL) vs[0] = n->u.call.a, vs[1] = n->u.call.b, vs[2] = n->u.call.c;
  if (n->kind == IR_CAST) vs[0] = n->u.cast.a;
}

static bool any_dev(Plan *p, const Node *n) {
  Val vs[3];
  pure_operands(n, vs);
  return (vs[0] && p->dev[vs[0]]) || (vs[1] && p->dev[vs[1]]) || (vs[2] && p->dev[vs[2]]);
}

static void host_operands(Plan *p, const Node *n) {
  Val vs[3];
  pure_operands(n, vs);
  for (int k = 0; k < 3; k++) to_host(p, vs[k]);
}

// One pass of the plan over host-level code: what is on the device given the host needs, and
// the host needs that a value computed on the host adds to its operands.
static void plan_pass(Plan *p, const Block *b) {
  const Fn *f = p->e->f;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_UNOP || n->kind == IR_BINOP || n->kind == IR_CALL || n->kind == IR_CAST) {
      bool d = !p->host[n->out] && cell_type(f->vals[n->out].type) && any_dev(p, n);
      set_dev(p, n->out, d);
      if (!d) host_operands(p, n);
    } else if (n->kind == IR_READ) {
      set_dev(p, n->out, p->src[n->out] && !p->host[n->out]);
    } else if (n->kind == IR_IF) {
      plan_pass(p, n->u.ifs.then);
      plan_pass(p, n->u.ifs.els);
    } else if (n->kind == IR_LOOP) {
      for (int k = 0; k < n->u.loop.ncarry; k++) {
        Val par = n->u.loop.params[k], out = n->u.loop.outs[k], in = n->u.loop.init[k];
        Val y = n->u.loop.body->yields[k];
        bool d = cell_type(f->vals[par].type) && !p->host[par] && !p->host[out] && !p->host[in] &&
                 !p->host[y] && ((in && p->dev[in]) || (y && p->dev[y]));
        set_dev(p, par, d);
        set_dev(p, out, d && p->e->uses[out]); // (an unused result: not written)
        if (!d) to_host(p, in), to_host(p, y);
      }
      plan_pass(p, n->u.loop.body);
    } else if (n->kind == IR_PAR) {
      if (n->u.par.nscans)
        set_dev(p, n->u.par.scans[0].out[0], p->src[n->u.par.scans[0].out[0]] &&
                                             !p->host[n->u.par.scans[0].out[0]] && p->e->uses[n->u.par.scans[0].out[0]]);
      for (int r = 0; !n->u.par.nscans && r < n->u.par.nreds; r++) {
        const Red *rd = &n->u.par.reds[r];
        bool d = p->src[rd->out[0]] && !p->host[rd->out[0]];
        set_dev(p, rd->out[0], d);
        if (!d) to_host(p, rd->init[0]);
      }
    }
  }
}

void plan_dev(Emit *e) {
  const Fn *f = e->f;
  e->ncells = 0;
  e->on_dev = NULL;
  if (e->opt->target != TARGET_CUDA) return;
  Plan p = {.e = e, .host = ARENA_ARRAY(e->a, unsigned char, f->nvals),
            .src = ARENA_ARRAY(e->a, unsigned char, f->nvals),
            .dev = ARENA_ARRAY(e->a, unsigned char, f->nvals)};
  host_uses(&p, f->body);
  int passes = 0;
  do {
    p.changed = false;
    plan_pass(&p, f->body);
    IR_ASSERT(++passes < 10000);
  } while (p.changed);
  e->cell_used = ARENA_ARRAY(e->a, unsigned char, f->nvals);
  for (int v = 1; v < f->nvals; v++) e->ncells += p.dev[v];
  if (e->ncells) e->on_dev = p.dev;
}

bool on_dev(const Emit *e, Val v) {
  return e->on_dev && v && e->on_dev[v];
}

// The device cell of a value on the device (a pointer into adsoac_cells; emit_fn gives one to
// the values the code refers to this way: not to those used only in the kernel of one thread
// that computes them).
const char *dev_ref(Emit *e, Val v) {
  e->cell_used[v] = 1;
  return arena_printf(e->a, "%s_dev", names_get(e->nm, v));
}

// Host-level arithmetic on values on the device: emit.c runs it in a kernel of one thread.
bool dev_pure(const Emit *e, const Node *n) {
  return (n->kind == IR_UNOP || n->kind == IR_BINOP || n->kind == IR_CALL || n->kind == IR_CAST) &&
         on_dev(e, n->out);
}
