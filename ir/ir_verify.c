// ir/ir_verify.c: structural checks run between passes (QBE's ssacheck).
//   - every Val is defined once;
//   - every use is defined earlier in program order, in the same parallel-loop body or an
//     enclosing one (IF and LOOP blocks do not open a scope: the emitters declare the values
//     they define at the top of the enclosing function or kernel body, so that reverse code
//     can read the forward values of a branch without recomputing them);
//   - ... and only where its definition ran: a value defined under if (c) (on one side) may
//     be used only under that side of c too, in that if or in a later if on the same c (the
//     reverse of a branch reads its forward values); one defined in a loop's body only in
//     that body.  A use where the definition may not have run would read a stale or
//     uninitialized variable (the class of issue 23: an adjoint summed outside its branch);
//   - yields match the statement that consumes them.
#include <stdlib.h>

#include "ir.h"

// Where a definition runs: a chain of enclosing guards, each one side of an if (its
// condition and the side) or one loop body (side 2, keyed by the loop's index).
typedef struct {
  int parent; // -1: the function's body
  Val cond;
  int side;
} Guard;

typedef struct {
  const Fn *f;
  const char *pass;
  unsigned char *live;  // live[v]: defined and in scope
  unsigned char *seen;  // seen[v]: defined anywhere
  int *guard;           // guard[v]: the guard its definition runs under (-1: always)
  Guard *guards;
  int nguards, cap, cur; // cur: the guard of the statement being verified
  unsigned char *held;   // held[cond]: the sides (bit 1 << side) of the guards of marked_for
  int marked_for;        // the guard whose chain held[] describes (-2: none)
  Val *defd;             // the values defined so far, in order (scoped undoes its own)
  int ndefd, capdefd;
} Verifier;

static _Noreturn void fail(Verifier *vf, const char *what, Val v) {
  char msg[256];
  snprintf(msg, sizeof msg, "IR verifier after '%s' in %s: %s (value %u)", vf->pass, vf->f->name,
           what, v);
  diag_internal(__FILE__, __LINE__, msg);
}

static const Node *cur_node; // for the message

// Does every guard of g hold wherever the guards of the current statement hold?  held[]
// holds the (cond, side) pairs of the current chain, rebuilt when the statement's guard
// changes: a check costs the depth of g, not its product with the current depth (1,000
// nested ifs were 10^9 steps).
static bool guard_holds(Verifier *vf, int g) {
  if (g < 0 || g == vf->cur) return true;
  if (vf->marked_for != vf->cur) {
    for (int c = vf->marked_for; c >= 0; c = vf->guards[c].parent) vf->held[vf->guards[c].cond] = 0;
    for (int c = vf->cur; c >= 0; c = vf->guards[c].parent)
      vf->held[vf->guards[c].cond] |= (unsigned char)(1 << vf->guards[c].side);
    vf->marked_for = vf->cur;
  }
  for (; g >= 0; g = vf->guards[g].parent)
    if (!(vf->held[vf->guards[g].cond] & (1 << vf->guards[g].side))) return false;
  return true;
}

static void use(Verifier *vf, Val v) {
  if (!v) return;
  if ((int)v >= vf->f->nvals || !vf->live[v])
    fail(vf, cur_node ? node_kind_names[cur_node->kind] : "use of an undefined value", v);
  if (!guard_holds(vf, vf->guard[v]))
    fail(vf, "use of a value where its definition may not have run (defined in a branch or "
             "a loop body)", v);
}

static void def(Verifier *vf, Val v) {
  if (!v) return;
  if ((int)v >= vf->f->nvals || vf->seen[v]) fail(vf, "value defined twice", v);
  vf->seen[v] = vf->live[v] = 1;
  vf->guard[v] = vf->cur;
  if (vf->ndefd == vf->capdefd) {
    vf->capdefd = vf->capdefd ? 2 * vf->capdefd : 256;
    vf->defd = realloc(vf->defd, sizeof(Val) * (size_t)vf->capdefd);
    if (!vf->defd) diag_internal(__FILE__, __LINE__, "out of memory");
  }
  vf->defd[vf->ndefd++] = v;
}

// Enters a guard (one side of an if, or a loop body); returns the one to restore after.
static int enter(Verifier *vf, Val cond, int side) {
  if (vf->nguards == vf->cap) {
    vf->cap = vf->cap ? 2 * vf->cap : 64;
    vf->guards = realloc(vf->guards, sizeof(Guard) * (size_t)vf->cap);
    if (!vf->guards) diag_internal(__FILE__, __LINE__, "out of memory");
  }
  vf->guards[vf->nguards] = (Guard){vf->cur, cond, side};
  int outer = vf->cur;
  vf->cur = vf->nguards++;
  return outer;
}

static void verify_block(Verifier *vf, const Block *b);

// Verifies a nested block, then drops its definitions from scope (each value is defined
// once: those defined since the mark were not live before; a copy of live[] per nested
// loop cost the number of values times the depth).
static void scoped(Verifier *vf, const Block *b, const Val *pre, int npre) {
  int mark = vf->ndefd;
  for (int i = 0; i < npre; i++) def(vf, pre[i]);
  verify_block(vf, b);
  while (vf->ndefd > mark) vf->live[vf->defd[--vf->ndefd]] = 0;
}

// An operator's body sees only its parameters (and constants it defines).
static void verify_lambda(Verifier *vf, const Lambda *l) {
  if (!l) return;
  Val *pre = malloc(sizeof(Val) * (size_t)(2 * l->nf + 1));
  int np = 0;
  for (int f = 0; f < l->nf; f++) pre[np++] = l->pa[f], pre[np++] = l->pb[f];
  scoped(vf, l->body, pre, np);
  free(pre);
  if (l->body->nyields != l->nf) fail(vf, "operator: yields do not match its fields", 0);
}

static void use_val(Val *v, void *vf) {
  use(vf, *v);
}

static void verify_node(Verifier *vf, const Node *n) {
  cur_node = n;
  ir_node_uses((Node *)n, use_val, vf); // (computed before its nested blocks run)
  switch (n->kind) {
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_RETURN:
    break;
  case IR_COLL: {
    const bool data = n->u.coll.kind != COLL_RANK && n->u.coll.kind != COLL_SIZE;
    if (!n->u.coll.comm || !data != !!n->out || (data && (!n->u.coll.in || !n->u.coll.count)) ||
        (data && n->u.coll.mode == COLL_CALL && !n->u.coll.out) ||
        (n->u.coll.mode != COLL_CALL && (!n->u.coll.in_d || !n->u.coll.out_d)) ||
        (coll_rooted(n->u.coll.kind) && !n->u.coll.root))
      fail(vf, "coll: operands do not match the collective", n->out);
    break;
  }
  case IR_CALL: {
    int ar = math_arity(n->u.call.fn);
    if (!n->u.call.a || !n->u.call.b != (ar < 2) || !n->u.call.c != (ar < 3))
      fail(vf, "call: operands do not match the function's arity", n->out);
    break;
  }
  case IR_EXT: {
    const ExtFn *e = n->u.ext.fn;
    int nact = 0;
    for (int k = 0; k < e->nparams; k++) nact += ext_active(e, k);
    int want_args = e->nparams + (n->u.ext.mode == EXT_VJP ? 1 : n->u.ext.mode == EXT_JVP ? nact : 0);
    int want_outs = n->u.ext.mode == EXT_VJP ? nact : n->u.ext.mode == EXT_JVP;
    if (n->u.ext.nargs != want_args || n->u.ext.nouts != want_outs ||
        (n->u.ext.mode == EXT_CALL && !n->out) || (n->u.ext.mode == EXT_VJP && n->out))
      fail(vf, "ext: operands do not match the function's parameters", n->out);
    for (int i = 0; i < n->u.ext.nargs; i++)
      if (!n->u.ext.args[i]) fail(vf, "ext: missing operand", n->out);
    for (int i = 0; i < n->u.ext.nouts; i++) def(vf, n->u.ext.outs[i]);
    break;
  }
  case IR_IF: {
    int outer = enter(vf, n->u.ifs.cond, 0);
    verify_block(vf, n->u.ifs.then);
    vf->cur = outer;
    enter(vf, n->u.ifs.cond, 1);
    verify_block(vf, n->u.ifs.els);
    vf->cur = outer;
    cur_node = n;
    if (n->u.ifs.then->nyields != n->u.ifs.nouts || n->u.ifs.els->nyields != n->u.ifs.nouts)
      fail(vf, "if: yields do not match outs", n->out);
    for (int i = 0; i < n->u.ifs.nouts; i++) def(vf, n->u.ifs.outs[i]);
    break;
  }
  case IR_LOOP: {
    int outer = enter(vf, n->u.loop.idx, 2);
    def(vf, n->u.loop.idx);
    for (int i = 0; i < n->u.loop.ncarry; i++) def(vf, n->u.loop.params[i]);
    verify_block(vf, n->u.loop.body);
    vf->cur = outer;
    cur_node = n;
    if (n->u.loop.body->nyields != n->u.loop.ncarry) fail(vf, "loop: yields/carry mismatch", 0);
    if (n->u.loop.exit) {
      bool carried = false;
      for (int i = 0; i < n->u.loop.ncarry; i++) carried |= n->u.loop.params[i] == n->u.loop.exit;
      if (!carried) fail(vf, "loop: the exit flag is not a carried value", n->u.loop.exit);
    }
    for (int i = 0; i < n->u.loop.ncarry; i++) def(vf, n->u.loop.outs[i]);
    break;
  }
  case IR_PAR:
    for (int r = 0; r < n->u.par.nreds; r++) {
      const Red *red = &n->u.par.reds[r];
      if (red->slot + red->nf > n->u.par.body->nyields) fail(vf, "par: bad reduction slot", 0);
      verify_lambda(vf, red->lam);
      verify_lambda(vf, red->inv);
    }
    for (int k = 0; k < n->u.par.nscans; k++) {
      const Scan *sc = &n->u.par.scans[k];
      if (sc->slot + sc->nf > n->u.par.body->nyields) fail(vf, "par: bad scan slot", 0);
      verify_lambda(vf, sc->lam);
    }
    for (int k = 0; k < n->u.par.nhists; k++) verify_lambda(vf, n->u.par.hists[k].lam);
    {
      int np = 1;
      for (int k = 0; k < n->u.par.nscans; k++) np += n->u.par.scans[k].nf;
      Val *pre = malloc(sizeof(Val) * (size_t)np);
      np = 0;
      pre[np++] = n->u.par.idx;
      for (int k = 0; k < n->u.par.nscans; k++)
        for (int f = 0; f < n->u.par.scans[k].nf; f++) pre[np++] = n->u.par.scans[k].excl[f];
      scoped(vf, n->u.par.body, pre, np);
      free(pre);
    }
    for (int r = 0; r < n->u.par.nreds; r++)
      for (int f = 0; f < n->u.par.reds[r].nf; f++) def(vf, n->u.par.reds[r].out[f]);
    for (int k = 0; k < n->u.par.nscans; k++)
      for (int f = 0; f < n->u.par.scans[k].nf; f++) def(vf, n->u.par.scans[k].out[f]);
    break;
  }
  def(vf, n->out);
}

static void verify_block(Verifier *vf, const Block *b) {
  for (int i = 0; i < b->n; i++) verify_node(vf, b->stmts[i]);
  for (int i = 0; i < b->nyields; i++) use(vf, b->yields[i]);
}

void ir_verify(const Fn *f, const char *after_pass) {
  Verifier vf = {f, after_pass, calloc((size_t)f->nvals, 1), calloc((size_t)f->nvals, 1),
                 malloc(sizeof(int) * (size_t)(f->nvals + 1)), NULL, 0, 0, -1,
                 calloc((size_t)f->nvals + 1, 1), -2};
  for (int i = 0; i < f->nparams; i++) def(&vf, f->params[i].val);
  verify_block(&vf, f->body);
  free(vf.live);
  free(vf.seen);
  free(vf.guard);
  free(vf.guards);
  free(vf.held);
  free(vf.defd);
}
