// emit/emit.c: the output file, and the statements both targets write the same way.
//
// Layout of a generated file:
//   header comment; the embedded runtime (runtime/src); the input with the marked functions
//   removed; then, per marked function, f, f_vjp and f_jvp (CUDA kernels before each).
#include <pthread.h>
#include <ctype.h>
#include <string.h>

#include "emit_internal.h"
#include "rt_embed.h"

static void emit_block(Emit *e, const Block *b);

// "T x = expr;" where the value is declared here, else "x = expr;"
static void assign(Emit *e, Val v, const char *expr) {
  if (e->host || e->if_depth)
    line(e, "%s = %s;", names_get(e->nm, v), expr);
  else
    line(e, "%s %s = %s;", tname(e, e->f->vals[v].type), names_get(e->nm, v), expr);
}

static const char *binop_expr(Emit *e, const Node *n) {
  return arena_printf(e->a, "%s %s %s", ref(e, n->u.bin.a), binop_c(n->u.bin.op), ref(e, n->u.bin.b));
}

// ---- the scalars kept on the device (emit_dev.c) ----

// Before the function returns: the cells of its scalars kept on the device.
static void free_cells(Emit *e) {
  if (!e->ncells) return;
  line(e, "adsoac_dev_free(adsoac_cells, adsoac_cx);");
  line(e, "adsoac_cells = NULL;");
}

// dst = src at host level where dst is kept on the device: a copy between cells, or src's
// host value put there.
static void dev_assign(Emit *e, Val dst, Val src) {
  e->uses_fail = true;
  if (on_dev(e, src))
    line(e, "ADSOAC_CHECK(adsoac_dev_copy(%s, %s, sizeof *%s, adsoac_cx));", dev_ref(e, dst), dev_ref(e, src),
         dev_ref(e, dst));
  else
    line(e, "ADSOAC_CHECK(adsoac_put(%s, (%s)%s, adsoac_cx));", dev_ref(e, dst),
         tname(e, e->f->vals[dst].type), ref(e, src));
}

typedef struct {
  Emit *e;
  unsigned char *defd, *seen;
  Val *in;
  int nin;
  int *inside; // uses within the run
} DevRun;

static void dev_run_operand(Val *v, void *ctx) {
  DevRun *r = ctx;
  r->inside[*v]++;
  Val a = r->e->f->vals[*v].parent ? r->e->f->vals[*v].parent : *v; // (a field: the struct)
  if (r->defd[a] || r->seen[a] || (r->e->def[a] && r->e->def[a]->kind == IR_CONST)) return;
  r->seen[a] = 1;
  r->in[r->nin++] = a;
}

static void emit_stmt(Emit *e, const Node *n);

// Host-level arithmetic on values kept on the device, b->stmts[i] and those after it while it
// lasts: one kernel of one thread, which reads its operands from their cells (host values
// come as its arguments) and writes to theirs the results used after it.  Returns the
// statements written.
static int emit_dev_run(Emit *e, const Block *b, int i) {
  int j = i;
  while (j < b->n && (dev_pure(e, b->stmts[j]) || b->stmts[j]->kind == IR_CONST)) j++;
  int nv = e->f->nvals;
  DevRun r = {e, ARENA_ARRAY(e->a, unsigned char, nv), ARENA_ARRAY(e->a, unsigned char, nv),
              ARENA_ARRAY(e->a, Val, nv), 0, ARENA_ARRAY(e->a, int, nv)};
  for (int k = i; k < j; k++) {
    ir_node_uses(b->stmts[k], dev_run_operand, &r);
    r.defd[b->stmts[k]->out] = 1;
  }
  const char *kname = arena_printf(e->a, "adsoac_k%d_%s", ++e->nkernels, e->f->name);
  Buf sig = {.arena = e->a}, call = {.arena = e->a};
  for (int k = 0; k < r.nin; k++) {
    Val v = r.in[k];
    const char *t = tname(e, e->f->vals[v].type);
    buf_printf(&sig, "%s%s%s %s%s", k ? ", " : "", on_dev(e, v) ? "const " : "", t, on_dev(e, v) ? "*" : "",
               on_dev(e, v) ? dev_ref(e, v) : ref(e, v));
    buf_printf(&call, "%s%s", k ? ", " : "", on_dev(e, v) ? dev_ref(e, v) : ref(e, v));
  }
  for (int k = i; k < j; k++) {
    Val v = b->stmts[k]->out;
    if (b->stmts[k]->kind == IR_CONST || e->uses[v] <= r.inside[v]) continue; // (used in the run only)
    buf_printf(&sig, "%s%s *%s", sig.len ? ", " : "", tname(e, e->f->vals[v].type), dev_ref(e, v));
    buf_printf(&call, "%s%s", call.len ? ", " : "", dev_ref(e, v));
  }
  Buf *host_out = e->out;
  int depth = e->depth, ifd = e->if_depth;
  e->out = &e->kernels;
  e->depth = 0;
  buf_printf(e->out, "\n// arithmetic on scalars kept on the device (%s:%u)\nstatic __global__ void %s(%s) {\n",
             e->opt->input_name, b->stmts[i]->loc.line, kname, sig.len ? sig.data : "void");
  e->depth = 1;
  e->host = false;
  e->if_depth = 0;
  for (int k = 0; k < r.nin; k++)
    if (on_dev(e, r.in[k]))
      line(e, "%s %s = *%s;", tname(e, e->f->vals[r.in[k]].type), ref(e, r.in[k]), dev_ref(e, r.in[k]));
  for (int k = i; k < j; k++) emit_stmt(e, b->stmts[k]);
  for (int k = i; k < j; k++) {
    Val v = b->stmts[k]->out;
    if (b->stmts[k]->kind != IR_CONST && e->uses[v] > r.inside[v]) line(e, "*%s = %s;", dev_ref(e, v), ref(e, v));
  }
  buf_puts(e->out, "}\n");
  e->out = host_out;
  e->depth = depth;
  e->if_depth = ifd;
  e->host = true;
  e->uses_fail = true;
  line(e, "%s<<<1, 1, 0, adsoac_cx->s>>>(%s); // (scalars kept on the device)", kname, call.len ? call.data : "");
  line(e, "ADSOAC_CHECK(adsoac_launched(adsoac_cx));");
  buf_free(&sig);
  buf_free(&call);
  return j - i;
}

static void emit_if(Emit *e, const Node *n) {
  line(e, "if (%s) {", ref(e, n->u.ifs.cond));
  const Block *side[2] = {n->u.ifs.then, n->u.ifs.els};
  for (int s = 0; s < 2; s++) {
    if (s && !side[s]->n && !n->u.ifs.nouts) break; // (no else)
    if (s) line(e, "} else {");
    e->depth++;
    e->if_depth++;
    emit_block(e, side[s]);
    for (int k = 0; k < n->u.ifs.nouts; k++)
      line(e, "%s = %s;", names_get(e->nm, n->u.ifs.outs[k]), ref(e, side[s]->yields[k]));
    e->if_depth--;
    e->depth--;
  }
  line(e, "}");
}

// A sequential loop: its carried values are variables assigned the body's results at the end
// of each iteration (through temporaries when one result is another carried value).
// The source loop's hints (IR_LOOP.hints), in the primal f: on the C target all of them (the
// compiler told to take the ones it does not know in silence, as the source's: true, pop
// after the loop), on the CUDA target unroll in kernels (nvcc's; the rest are host ones).
static bool emit_hints(Emit *e, const Node *n) {
  bool pop = false;
  for (const char *h = e->primal ? n->u.loop.hints : NULL; h && *h;) {
    int len = (int)strcspn(h, "\n");
    bool unroll = !strncmp(h, "unroll", 6) || !strncmp(h, "nounroll", 8);
    if (e->opt->target == TARGET_C && !pop) {
      line(e, "#pragma GCC diagnostic push");
      line(e, "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"");
      pop = true;
    }
    if (e->opt->target == TARGET_C || (unroll && !e->host))
      line(e, "#pragma %.*s", len, h);
    h += len + (h[len] == '\n');
  }
  return pop;
}

static void emit_loop(Emit *e, const Node *n) {
  bool decl = !e->host && !e->if_depth;
  const Val *par = n->u.loop.params, *y = n->u.loop.body->yields;
  int nc = n->u.loop.ncarry;
  line(e, "// sequential loop (%s:%u)", e->opt->input_name, n->loc.line);
  if (n->u.loop.note) line(e, "// %s", n->u.loop.note);
  for (int k = 0; k < nc; k++)
    if (on_dev(e, par[k]))
      dev_assign(e, par[k], n->u.loop.init[k]);
    else
      line(e, "%s%s = %s;", decl ? arena_printf(e->a, "%s ", tname(e, e->f->vals[par[k]].type)) : "",
           names_get(e->nm, par[k]), ref(e, n->u.loop.init[k]));
  const char *i = ref(e, n->u.loop.idx);
  bool pop = emit_hints(e, n);
  line(e, "for (%s %s = %s; %s < %s; %s++) {", tname(e, e->f->vals[n->u.loop.idx].type), i,
       ref(e, n->u.loop.lo), i, ref(e, n->u.loop.hi), i);
  e->depth++;
  if (n->u.loop.exit) line(e, "if (%s) break;", names_get(e->nm, n->u.loop.exit));
  emit_block(e, n->u.loop.body);
  bool temps = false;
  for (int k = 0; k < nc; k++)
    for (int j = 0; j < nc; j++) temps |= j != k && y[k] == par[j];
  for (int k = 0; temps && k < nc; k++)
    line(e, "%s adsoac_c%d = %s;", tname(e, e->f->vals[par[k]].type), k, ref(e, y[k]));
  for (int k = 0; k < nc; k++)
    if (on_dev(e, par[k]) && y[k] != par[k]) // (never exchanged: emit_dev.c)
      dev_assign(e, par[k], y[k]);
    else if (temps || y[k] != par[k])
      line(e, "%s = %s;", names_get(e->nm, par[k]),
           temps ? arena_printf(e->a, "adsoac_c%d", k) : ref(e, y[k]));
  e->depth--;
  line(e, "}");
  if (pop) line(e, "#pragma GCC diagnostic pop");
  for (int k = 0; k < nc; k++)
    if (e->uses[n->u.loop.outs[k]] && on_dev(e, par[k]))
      dev_assign(e, n->u.loop.outs[k], par[k]);
    else if (e->uses[n->u.loop.outs[k]])
      line(e, "%s%s = %s;", decl ? arena_printf(e->a, "%s ", tname(e, e->f->vals[par[k]].type)) : "",
           names_get(e->nm, n->u.loop.outs[k]), names_get(e->nm, par[k]));
}

// A function with declared derivatives (ExtFn), or its vjp or jvp, with adsoac's own
// conventions: each active argument followed by its adjoint's address or its tangent; the
// seed last (vjp), or the address of the result's tangent (jvp).
static void emit_ext(Emit *e, const Node *n) {
  const ExtFn *x = n->u.ext.fn;
  ExtMode m = n->u.ext.mode;
  if (x->global && e->f->vals[n->out].type->kind == TY_PTR) { // a file-scope array
    const Type *t = e->f->vals[n->out].type;
    if (e->opt->target == TARGET_CUDA) // (its device copy, refreshed: emit_globals)
    {
      note_sync(e, n->loc, arena_printf(e->a, "copies the file-scope array %s to the device", x->name));
      line(e, "ADSOAC_CHECK(adsoac_dev_global((void **)&%s, adsoac_g_%s, %s, sizeof %s, %s));",
           names_get(e->nm, n->out), x->name, x->name, x->name, where(e));
    }
    else
      assign(e, n->out, arena_printf(e->a, "(%s)%s", tname(e, t), x->name));
    return;
  }
  if (x->global) { // a file-scope variable, read where the function starts
    assign(e, n->out, x->name);
    return;
  }
  for (int k = 0; k < n->u.ext.nouts; k++) assign(e, n->u.ext.outs[k], "0");
  Buf b = {.arena = e->a};
  buf_printf(&b, "%s(", m == EXT_CALL ? x->name : m == EXT_VJP ? x->vjp : x->jvp);
  int j = 0;
  for (int k = 0; k < x->nparams; k++) {
    buf_printf(&b, "%s%s", k ? ", " : "", ref(e, n->u.ext.args[k]));
    if (m == EXT_CALL || !ext_active(x, k)) continue;
    if (m == EXT_VJP)
      buf_printf(&b, ", &%s", names_get(e->nm, n->u.ext.outs[j++]));
    else
      buf_printf(&b, ", %s", ref(e, n->u.ext.args[x->nparams + j++]));
  }
  if (m == EXT_VJP) buf_printf(&b, ", %s", ref(e, n->u.ext.args[x->nparams]));
  if (m == EXT_JVP) buf_printf(&b, ", &%s", names_get(e->nm, n->u.ext.outs[0]));
  buf_puts(&b, ")");
  const char *call = arena_strdup(e->a, b.data);
  buf_free(&b);
  if (n->out)
    assign(e, n->out, call);
  else
    line(e, "(void)%s;", call);
}

static const char *elem_ref(Emit *e, const Node *n) {
  return elem_at(e, n->u.mem.arr, ref(e, n->u.mem.idx));
}


// Before the function returns: an iteration that could not allocate its arrays fails it.
// (On CUDA the synchronous wrappers then wait for the stream: emit_cuda_wrappers.)
static void emit_exit_checks(Emit *e) {
  if (e->uses_priv) {
    e->uses_fail = true;
    if (e->opt->target == TARGET_CUDA) note_sync(e, e->f->loc, "reads whether the iterations' arrays could be allocated");
    line(e, "ADSOAC_CHECK(adsoac_priv_check(%s));", where(e));
  }
}
// ---- MPI collectives (language.md §10; runtime/src/rt_mpi.h) ----

static const char *mpi_type(const Type *t) {
  if (t->kind == TY_DOUBLE) return "MPI_DOUBLE";
  if (t->kind == TY_FLOAT) return "MPI_FLOAT";
  return !strcmp(t->name, "long") ? "MPI_LONG" : "MPI_INT"; // (the front end's choice of type)
}

static void emit_coll(Emit *e, const Node *n) {
  const char *fn = where(e), *comm = ref(e, n->u.coll.comm);
  CollKind k = n->u.coll.kind;
  e->uses_fail = true;
  line(e, "// %s%s (%s:%u)", coll_name(k), n->u.coll.mode == COLL_VJP ? ": its adjoint"
                                   : n->u.coll.mode == COLL_JVP ? ": its tangent" : "",
       e->opt->input_name, n->loc.line);
  if (k == COLL_RANK || k == COLL_SIZE) {
    assign(e, n->out, "0");
    line(e, "ADSOAC_CHECK(adsoac_comm_%s(%s, &%s, %s));", k == COLL_RANK ? "rank" : "size",
         comm, names_get(e->nm, n->out), where(e));
    return;
  }
  static const char *const kinds[] = {"ADSOAC_ALLREDUCE", "ADSOAC_REDUCE", "ADSOAC_BCAST",
                                      "ADSOAC_ALLGATHER", "ADSOAC_GATHER", "ADSOAC_SCATTER"};
  static const char *const ops[] = {"ADSOAC_MPI_SUM", "ADSOAC_MPI_PROD", "ADSOAC_MPI_MIN",
                                    "ADSOAC_MPI_MAX"};
  const Type *t = e->f->vals[n->u.coll.in].type->elem;
  const char *cnt = ref(e, n->u.coll.count);
  const char *op = k == COLL_ALLREDUCE || k == COLL_REDUCE ? ops[n->u.coll.op] : "ADSOAC_MPI_SUM";
  const char *root = n->u.coll.root ? ref(e, n->u.coll.root) : "0";
  bool cuda = e->opt->target == TARGET_CUDA;
  // its arrays, the one it writes last; their lengths: count, or count per rank (an
  // allgather's and a gather's out, a scatter's in)
  CollMode m = n->u.coll.mode;
  Val arrs[3] = {n->u.coll.in, m == COLL_CALL ? n->u.coll.out : m == COLL_VJP ? n->u.coll.out_d
                                                                             : n->u.coll.in_d,
                 m == COLL_VJP ? n->u.coll.in_d : n->u.coll.out_d};
  int na = m == COLL_CALL ? 2 : 3;
  bool per_rank_out = k == COLL_ALLGATHER || k == COLL_GATHER, per_rank_in = k == COLL_SCATTER;
  bool is_out[3] = {false, m != COLL_JVP, m == COLL_JVP};
  const char *a[3], *len[3];
  for (int i = 0; i < na; i++) {
    a[i] = cuda ? arena_printf(e->a, "(%s *)adsoac_s.h[%d]", tname(e, t), i) : ref(e, arrs[i]);
    len[i] = (is_out[i] ? per_rank_out : per_rank_in)
                 ? arena_printf(e->a, "%s * adsoac_mpi_ranks_(%s)", cnt, comm) : cnt;
  }
  Buf call = {.arena = e->a};
  if (m == COLL_CALL)
    buf_printf(&call, "adsoac_mpi(%s, %s, %s, %s, %s, %s, %s, %s, %s)", kinds[k], op, a[0],
               a[1], cnt, mpi_type(t), root, comm, fn);
  else
    buf_printf(&call, "adsoac_mpi_%s_%s(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
               m == COLL_VJP ? "vjp" : "jvp", t->kind == TY_FLOAT ? "f" : "d", kinds[k], op, a[0],
               m == COLL_VJP ? a[2] : a[1], m == COLL_VJP ? a[1] : a[2], cnt, root, comm, fn);
  if (!cuda) {
    line(e, "ADSOAC_CHECK(%s);", call.data);
    return;
  }
  note_sync(e, n->loc, arena_printf(e->a, "calls %s (MPI reads what the stream wrote)", coll_name(k)));
  // CUDA: the device arrays themselves where MPI takes them and the rule only calls MPI
  // (rt_mpi.h adsoac_mpi_on_device_; never where min, max or product factors are computed on
  // the host), else through host copies of them (the one it writes copied back)
  bool red = k == COLL_ALLREDUCE || k == COLL_REDUCE;
  if (m == COLL_CALL || !red || n->u.coll.op == RED_ADD) {
    static const char *const modes[] = {"ADSOAC_MPI_CALL", "ADSOAC_MPI_VJP", "ADSOAC_MPI_JVP"};
    line(e, "if (adsoac_mpi_on_device_(%s, %s, %s, %s)) { // (a CUDA-aware MPI)", kinds[k], op, modes[m], mpi_type(t));
    if (m == COLL_VJP)
      line(e, "  ADSOAC_CHECK(adsoac_mpi_vjp_dev(%s, %s, %s, %s, %s, %s, %s, %s, %s));", kinds[k], op,
           ref(e, arrs[2]), ref(e, arrs[1]), cnt, mpi_type(t), root, comm, fn);
    else
      line(e, "  ADSOAC_CHECK(adsoac_mpi_dev(%s, %s, %s, %s, %s, %s, %s, %s, %s));", kinds[k], op,
           ref(e, arrs[m == COLL_JVP ? 1 : 0]), ref(e, arrs[m == COLL_JVP ? 2 : 1]), cnt, mpi_type(t), root,
           comm, fn);
    line(e, "} else {");
  } else {
    line(e, "{");
  }
  line(e, "  AdsoacStage adsoac_s = {{NULL, NULL, NULL}};");
  line(e, "  int adsoac_bad = 0;");
  for (int i = 0; i < na; i++)
    line(e, "  adsoac_bad = adsoac_bad || adsoac_stage_(&adsoac_s, %d, %s, %s * sizeof(%s), %s, %s);",
         i, ref(e, arrs[i]), len[i], tname(e, t),
         i == na - 1 && n->u.coll.mode != COLL_VJP ? "false" : "true", fn);
  line(e, "  adsoac_bad = adsoac_bad || %s;", call.data);
  line(e, "  adsoac_bad = adsoac_bad || adsoac_unstage_(%s, adsoac_s.h[%d], %s * sizeof(%s), %s);",
       ref(e, arrs[na - 1]), na - 1, len[na - 1], tname(e, t), fn);
  line(e, "  adsoac_stage_free_(&adsoac_s);");
  line(e, "  ADSOAC_CHECK(adsoac_bad);");
  line(e, "}");
}

static void emit_stmt(Emit *e, const Node *n) {
  if (n->out && e->dead[n->out]) return;
  switch (n->kind) {
  case IR_CONST: return; // written inline where used
  case IR_UNOP: assign(e, n->out, arena_printf(e->a, "%s%s", unop_c(n->u.un.op), ref(e, n->u.un.a))); return;
  case IR_BINOP: assign(e, n->out, binop_expr(e, n)); return;
  case IR_CALL: {
    const char *fn = math_name(n->u.call.fn, e->f->vals[n->out].type);
    assign(e, n->out, n->u.call.c ? arena_printf(e->a, "%s(%s, %s, %s)", fn, ref(e, n->u.call.a),
                                                 ref(e, n->u.call.b), ref(e, n->u.call.c))
                      : n->u.call.b ? arena_printf(e->a, "%s(%s, %s)", fn, ref(e, n->u.call.a), ref(e, n->u.call.b))
                                    : arena_printf(e->a, "%s(%s)", fn, ref(e, n->u.call.a)));
    return;
  }
  case IR_EXT: emit_ext(e, n); return;
  case IR_CAST:
    assign(e, n->out, arena_printf(e->a, "(%s)%s", tname(e, e->f->vals[n->out].type), ref(e, n->u.cast.a)));
    return;
  case IR_READ:
    if (e->redirect[n->u.mem.arr]) { // a scan's prefix (emit_par.c scan_iteration)
      assign(e, n->out, e->redirect[n->u.mem.arr]);
      return;
    }
    if (e->host && on_dev(e, n->out)) { // (an element copied to a cell: emit_dev.c)
      e->uses_fail = true;
      line(e, "ADSOAC_CHECK(adsoac_dev_copy(%s, &%s, sizeof *%s, %s));", dev_ref(e, n->out), elem_ref(e, n),
           dev_ref(e, n->out), where(e));
      return;
    }
    if (e->host && e->opt->target == TARGET_CUDA) {
      e->uses_fail = true;
      note_sync(e, n->loc, arena_printf(e->a, "reads an element of %s on the host (line %u)",
                                names_get(e->nm, n->u.mem.arr), n->loc.line));
      line(e, "ADSOAC_CHECK(adsoac_load(&%s, &%s, sizeof %s, %s));", names_get(e->nm, n->out),
           elem_ref(e, n), names_get(e->nm, n->out), where(e));
      return;
    }
    assign(e, n->out, elem_ref(e, n));
    return;
  case IR_WRITE:
    if (e->redirect[n->u.mem.arr]) { // a scan's term
      line(e, "%s = %s;", e->redirect[n->u.mem.arr], ref(e, n->u.mem.v));
      return;
    }
    if (e->host && e->opt->target == TARGET_CUDA) {
      e->uses_fail = true;
      const Type *t = e->f->vals[n->u.mem.v].type;
      if (on_dev(e, n->u.mem.v))
        line(e, "ADSOAC_CHECK(adsoac_dev_copy(&%s, %s, sizeof *%s, %s));", elem_ref(e, n),
             dev_ref(e, n->u.mem.v), dev_ref(e, n->u.mem.v), where(e));
      else
        line(e, "ADSOAC_CHECK(adsoac_put(&%s, (%s)%s, %s));", elem_ref(e, n), tname(e, t), ref(e, n->u.mem.v),
             where(e));
      return;
    }
    line(e, "%s = %s;", elem_ref(e, n), ref(e, n->u.mem.v));
    return;
  case IR_ACC: emit_acc(e, n); return;
  case IR_IF: emit_if(e, n); return;
  case IR_PAR: emit_par(e, n); return;
  case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: emit_memory(e, n); return;
  case IR_COLL: emit_coll(e, n); return;
  case IR_RETURN:
    emit_exit_checks(e);
    for (int k = 0; k < n->u.ret.ng; k++) // (file-scope integers the function assigned)
      line(e, "%s = %s;", n->u.ret.gname[k], ref(e, n->u.ret.gv[k]));
    if (e->opt->target == TARGET_CUDA) { // (adsoac_run_f: to the wrapper's host or device result)
      e->uses_fail |= n->u.ret.v != 0;
      if (on_dev(e, n->u.ret.v))
        line(e, "ADSOAC_CHECK(adsoac_result_at(adsoac_ret_dev, adsoac_ret_host, %s, adsoac_cx));",
             dev_ref(e, n->u.ret.v));
      else if (n->u.ret.v)
        line(e, "ADSOAC_CHECK(adsoac_result(adsoac_ret_dev, adsoac_ret_host, (%s)%s, adsoac_cx));",
             tname(e, e->f->ret), ref(e, n->u.ret.v));
      free_cells(e);
      line(e, "return 0;");
    } else if (n->u.ret.v) {
      line(e, "return %s;", ref(e, n->u.ret.v));
    } else {
      line(e, "return;");
    }
    return;
  case IR_UPDATE: emit_update(e, n); return;
  case IR_LOOP: emit_loop(e, n); return;
  }
  diag_error(n->loc, NULL, "this construct cannot be emitted yet (%s)", node_kind_names[n->kind]);
}

static void emit_block(Emit *e, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    int k = e->host ? emit_scan_group(e, b, i) : 0; // a scan with the loops around it
    if (!k && e->host && dev_pure(e, b->stmts[i])) k = emit_dev_run(e, b, i);
    if (k)
      i += k - 1;
    else
      emit_stmt(e, b->stmts[i]);
  }
}

// ---- functions ----

// f's parameters as its prototype declares them (decl), and their names, to pass them on
// (args): an array of arrays as C declares it; a struct parameter once.
static void sig_params(Emit *e, const Fn *f, Buf *decl, Buf *args) {
  unsigned char *done = ARENA_ARRAY(e->a, unsigned char, f->nvals);
  for (int i = 0; i < f->nparams; i++) {
    Val v = f->params[i].val;
    if (f->vals[v].parent) { // the fields of a struct parameter: the struct, once
      if (done[v = f->vals[v].parent]) continue;
      done[v] = 1;
    }
    const Type *t = f->vals[v].type;
    const char *sep = decl->len ? ", " : "";
    const char *adecl = e->header && f->vals[v].adecl_num ? f->vals[v].adecl_num : f->vals[v].adecl;
    if (f->vals[v].arows && f->vals[v].avla && e->opt->target == TARGET_CUDA) {
      // C++ has no variable-length arrays: a pointer to the elements, which any array
      // converts to (the C declarator as a comment)
      buf_printf(decl, "%s%svoid *%s /* ", sep, t->elem_const ? "const " : "", f->params[i].name);
      buf_printf(decl, adecl, "");
      buf_puts(decl, " */");
      buf_printf(args, "%s%s", sep, f->params[i].name);
      continue;
    }
    if (adecl && (f->vals[v].arows || e->opt->target == TARGET_C)) {
      // (C++ takes double x[n] for a pointer: CUDA declares one)
      buf_printf(decl, "%s%s%s ", sep, t->elem_const ? "const " : "", tname(e, t->elem));
      buf_printf(decl, adecl, f->params[i].name);
      buf_printf(args, "%s%s", sep, f->params[i].name);
      continue;
    }
    buf_printf(decl, "%s%s%s%s", sep, tname(e, t), t->kind == TY_PTR ? "" : " ", names_get(e->nm, v));
    buf_printf(args, "%s%s", sep, names_get(e->nm, v));
  }
}

// f's prototype (without the ';'): static as the marked function is; extern "C" on CUDA
// (a host function a C program calls) unless static.  kind 0: f itself; 1 (CUDA): f_async,
// f on the caller's stream, its result to a device pointer; 2 (CUDA): the body they share,
// adsoac_run_f, which takes the call's context first.
static const char *fn_signature(Emit *e, const Fn *f, int kind) {
  Buf b = {.arena = e->a}, p = {.arena = e->a}, args = {.arena = e->a};
  sig_params(e, f, &p, &args);
  const char *link = f->is_static || kind == 2         ? "static ADSOAC_MAYBE_UNUSED "
                     : e->opt->target == TARGET_CUDA ? "extern \"C\" "
                                                     : "";
  bool ret = f->ret->kind != TY_VOID;
  const char *rt = tname(e, f->ret), *sep = p.len ? ", " : "";
  if (kind == 0)
    buf_printf(&b, "%s%s %s(%s)", link, rt, f->name, p.len ? p.data : "void");
  else if (kind == 1)
    buf_printf(&b, "%sint %s_async(%s%s%s%sAdsoacWorkspace *adsoac_ws, %s)", link, f->name,
               p.len ? p.data : "", sep, ret ? arena_printf(e->a, "%s *adsoac_ret", rt) : "", ret ? ", " : "",
               e->header ? "struct CUstream_st *adsoac_stream" : "cudaStream_t adsoac_stream");
  else
    buf_printf(&b, "%sint adsoac_run_%s(AdsoacCx *adsoac_cx%s%s%s)", link, f->name, sep,
               p.len ? p.data : "", ret ? arena_printf(e->a, ", %s *adsoac_ret_dev, %s *adsoac_ret_host", rt, rt) : "");
  const char *s = arena_strdup(e->a, b.data);
  buf_free(&b);
  buf_free(&p);
  buf_free(&args);
  return s;
}

static const char *signature(Emit *e, const Fn *f) {
  return fn_signature(e, f, 0);
}

// The names of f's parameters, to pass them on after the context (", " before each), and
// ", " before the result's pointers that follow them where there are.
static const char *fn_args(Emit *e, const Fn *f, bool more) {
  Buf p = {.arena = e->a}, args = {.arena = e->a};
  sig_params(e, f, &p, &args);
  const char *s = arena_printf(e->a, "%s%s%s", args.len ? ", " : "", args.len ? args.data : "", more ? ", " : "");
  buf_free(&p);
  buf_free(&args);
  return s;
}

// CUDA: f and f_async, over adsoac_run_f.  f, as language.md §2.3 says, runs on the legacy
// default stream and returns when its work is done, its temporaries from the calling
// thread's workspace (kept between calls); f_async issues its work to the caller's stream
// and returns, its result to the device pointer adsoac_ret.
static void emit_cuda_wrappers(Emit *e, const Fn *f, Buf *out) {
  bool ret = f->ret->kind != TY_VOID;
  const char *rt = tname(e, f->ret), *args = fn_args(e, f, ret);
  buf_printf(out, "\n// %s: its work on the legacy default stream; returns when it is done\n%s {\n", f->name,
             signature(e, f));
  if (ret) buf_printf(out, "  %s adsoac_v = (%s)0;\n", rt, rt);
  buf_printf(out, "  AdsoacCx adsoac_cx;\n  adsoac_sync_begin_(&adsoac_cx, \"%s\");\n", f->name);
  buf_printf(out, "  int adsoac_bad = adsoac_run_%s(&adsoac_cx%s%s);\n", f->name, args,
             ret ? "NULL, &adsoac_v" : "");
  buf_puts(out, "  adsoac_end_(&adsoac_cx);\n");
  if (ret)
    buf_printf(out, "  if (adsoac_sync_end_(&adsoac_cx, adsoac_bad))\n    return (%s)0;\n  return adsoac_v;\n", rt);
  else
    buf_puts(out, "  (void)adsoac_sync_end_(&adsoac_cx, adsoac_bad);\n");
  buf_puts(out, "}\n");
  buf_printf(out, "\n// %s_async: %s on the stream adsoac_stream, its temporaries from adsoac_ws (NULL:\n"
                  "// stream-ordered allocations)%s; returns 0, or 1 after recording an error.\n",
             f->name, f->name, ret ? ",\n// its result to the device pointer adsoac_ret" : "");
  if (e->nsyncs)
    buf_printf(out, "// The host waits for the stream in %d place%s; the first %s.\n", e->nsyncs,
               e->nsyncs > 1 ? "s" : "", e->sync_why);
  else
    buf_puts(out, "// The host waits for nothing.\n");
  buf_printf(out, "%s {\n", fn_signature(e, f, 1));
  buf_printf(out, "  AdsoacCx adsoac_cx;\n  adsoac_begin_(&adsoac_cx, \"%s_async\", adsoac_ws, adsoac_stream);\n",
             f->name);
  buf_printf(out, "  int adsoac_bad = adsoac_run_%s(&adsoac_cx%s%s);\n  adsoac_end_(&adsoac_cx);\n  return adsoac_bad;\n}\n",
             f->name, args, ret ? "adsoac_ret, NULL" : "");
}

static void emit_fn(Emit *e, const Fn *f, const char *what, Buf *out) {
  e->f = f;
  e->nm = names_new(e->a, f, e->prog, e->opt->target == TARGET_CUDA);
  e->def = ARENA_ARRAY(e->a, Node *, f->nvals);
  e->uses = ARENA_ARRAY(e->a, int, f->nvals);
  count_uses(f, e->uses);
  note_defs(e, f->body);
  plan_scans(e);
  e->uses_fail = false;
  e->uses_priv = false;
  e->nsyncs = 0;
  e->ntemps = 0;
  plan_dev(e);
  Buf body = {.arena = e->a};
  e->out = &body;
  e->depth = 1;
  e->host = true;
  e->if_depth = 0;
  if (e->ncells) { // the scalars kept on the device (emit_dev.c): their cells, below
    add_temp(e, "char *adsoac_cells");
    e->uses_fail = true;
  }
  emit_block(e, f->body);
  bool cuda = e->opt->target == TARGET_CUDA;
  if (!f->body->n || f->body->stmts[f->body->n - 1]->kind != IR_RETURN) {
    emit_exit_checks(e); // (the body falls off its end)
    if (cuda) free_cells(e);
    if (cuda) line(e, "return 0;");
  }

  e->out = out;
  buf_printf(out, "\n// %s\n", what);
  buf_printf(out, "%s {\n", fn_signature(e, f, cuda ? 2 : 0));
  e->depth = 1;
  for (int i = 0; i < f->nparams; i++) { // the flat aliases of arrays of arrays
    Val v = f->params[i].val;
    if (!f->vals[v].arows) continue;
    const Type *t = f->vals[v].type;
    const char *et = arena_printf(e->a, "%s%s", t->elem_const ? "const " : "", tname(e, t->elem));
    line(e, "%s *%s = (%s *)%s;", et, names_get(e->nm, v), et, f->params[i].name);
  }
  declare_hoisted(e, f->body, true);
  for (int i = 0; i < e->ntemps; i++) line(e, "%s = NULL;", e->temps[i]);
  if (e->ncells) { // a cell each for the values kept on the device that the code refers to
    int k = 0;
    for (int v = 1; v < f->nvals; v++) k += on_dev(e, v) && e->cell_used[v];
    line(e, "ADSOAC_CHECK(adsoac_dev_alloc((void **)&adsoac_cells, %d * ADSOAC_CELL, adsoac_cx)); "
            "// (the scalars kept on the device)", k ? k : 1);
    k = 0;
    for (int v = 1; v < f->nvals; v++)
      if (on_dev(e, v) && e->cell_used[v])
        line(e, "%s = (%s *)(adsoac_cells + %d * ADSOAC_CELL);", dev_ref(e, v), tname(e, f->vals[v].type), k++);
  }
  buf_puts(out, body.data ? body.data : "");
  buf_free(&body);
  if (e->uses_fail) {
    buf_puts(out, "adsoac_fail:\n");
    for (int i = 0; i < e->ntemps; i++)
      if (cuda)
        line(e, "adsoac_dev_free(%s, adsoac_cx);", strchr(e->temps[i], '*') + 1);
      else
        line(e, "adsoac_host_free(%s);", strchr(e->temps[i], '*') + 1);
    if (cuda)
      line(e, "return 1;");
    else if (f->ret->kind == TY_VOID)
      line(e, "return;");
    else
      line(e, "return (%s)0;", tname(e, f->ret));
  }
  buf_puts(out, "}\n");
  if (cuda) emit_cuda_wrappers(e, f, out);
}

static WalkNext calls_digamma(Node *n, void *ctx) {
  return n->kind == IR_CALL && n->u.call.fn == M_DIGAMMA ? WALK_STOP : WALK_INTO;
}

// rt_math.h (digamma) goes only into the files whose derivatives call it.
static bool needs_rt_math(const Prog *p) {
  Walker w = {.pre = calls_digamma, .lambdas = true};
  for (int i = 0; i < p->nmarked; i++) {
    const Fn *fs[] = {p->marked[i].primal, p->marked[i].vjp, p->marked[i].jvp};
    for (int k = 0; k < 3; k++)
      if (ir_walk(fs[k]->body, &w)) return true;
  }
  return false;
}

static WalkNext calls_mpi(Node *n, void *ctx) {
  return n->kind == IR_COLL ? WALK_STOP : WALK_INTO;
}

// rt_mpi.h goes only into the files whose functions call MPI (language.md §10).
bool prog_uses_mpi(const Prog *p) {
  for (int i = 0; i < p->nmarked; i++)
    if (ir_walk(p->marked[i].primal->body, &(Walker){.pre = calls_mpi})) return true;
  return false;
}

// The runtime, and of the CUDA runtime's parts those the generated code `gen` calls.
static void emit_runtime(Emit *e, Buf *out, const char *gen) {
  buf_puts(out, "// ---- adsoac runtime (embedded from runtime/src) ----\n");
  if (e->opt->deterministic) // (rt_host.h: chunks of scans and of two-phase loops)
    buf_puts(out, "#define ADSOAC_DETERMINISTIC 1 // --deterministic: no count of threads decides an order\n");
  buf_puts(out, rt_common_h);
  buf_puts(out, e->opt->target == TARGET_CUDA ? rt_cuda_cuh : rt_host_h);
  if (e->opt->target == TARGET_CUDA && gen && (strstr(gen, "adsoac_scan(") || strstr(gen, "adsoac_scan_fields(")))
    buf_puts(out, e->opt->deterministic ? rt_cuda_scan_det_cuh : rt_cuda_scan_cuh);
  if (e->opt->target == TARGET_CUDA && gen && strstr(gen, "adsoac_scan_fields("))
    buf_puts(out, rt_cuda_fields_cuh);
  if (e->opt->target == TARGET_CUDA && gen && strstr(gen, "adsoac_sort_by_key("))
    buf_puts(out, rt_cuda_sort_cuh);
  if (needs_rt_math(e->prog)) buf_puts(out, rt_math_h);
  if (prog_uses_mpi(e->prog)) buf_puts(out, rt_mpi_h);
  buf_puts(out, "// ---- end of adsoac runtime ----\n\n");
}

// The prototypes of f, f_vjp and f_jvp of marked function m, where its definition stood: the
// code after it (a main that calls it) sees them.
static void emit_prototypes(Emit *e, const Marked *m, Buf *out) {
  const Fn *fs[3] = {m->primal, m->vjp, m->jvp};
  buf_printf(out, "// adsoac: %s, %s and %s are defined below (generated)\n", m->primal->name,
             m->vjp->name, m->jvp->name);
  for (int k = 0; k < 3; k++) {
    e->f = fs[k];
    e->nm = names_new(e->a, fs[k], e->prog, e->opt->target == TARGET_CUDA);
    buf_printf(out, "%s;\n", signature(e, fs[k]));
  }
  for (int k = 0; e->opt->target == TARGET_CUDA && k < 3; k++) {
    e->f = fs[k];
    e->nm = names_new(e->a, fs[k], e->prog, true);
    buf_printf(out, "%s;\n", fn_signature(e, fs[k], 1));
  }
}

// The input from *pos to end, with the prototypes of the marked functions that the input
// declares in that range (after their first declaration: the code between it and the
// definition may call f_vjp, f_jvp too), and #line back to the input after each.
static void copy_input(Emit *e, uint32_t *pos, uint32_t end, Buf *out) {
  const Prog *p = e->prog;
  for (;;) {
    const Marked *m = NULL;
    for (int j = 0; j < p->nmarked; j++) {
      uint32_t at = p->marked[j].proto_byte;
      if (at && at > *pos && at < end && (!m || at < m->proto_byte)) m = &p->marked[j];
    }
    uint32_t to = m ? m->proto_byte : end;
    buf_printf(out, "%.*s", (int)(to - *pos), p->src.text + *pos);
    *pos = to;
    if (!m) return;
    buf_puts(out, "\n");
    emit_prototypes(e, m, out);
    if (e->opt->line_directives) {
      unsigned line = 1;
      for (uint32_t k = 0; k < to; k++) line += p->src.text[k] == '\n';
      buf_printf(out, "#line %u \"%s\"\n", line, e->opt->input_name);
    }
  }
}

static void emit_passthrough(Emit *e, Buf *out) {
  const Prog *p = e->prog;
  uint32_t pos = 0;
  buf_printf(out, "// ---- %s, without the functions marked #pragma adsoac grad ----\n",
             e->opt->input_name);
  // the helpers that only the marked functions called are inlined into the generated ones;
  // the loop pragmas of functions not marked are adsoac's, not the C compiler's
  buf_puts(out, "#if defined(__NVCC__)\n#pragma nv_diagnostic push\n#pragma nv_diag_suppress 177\n"
                "#endif\n#if defined(__GNUC__)\n#pragma GCC diagnostic push\n"
                "#pragma GCC diagnostic ignored \"-Wunused-function\"\n"
                "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n#endif\n");
  if (e->opt->line_directives) buf_printf(out, "#line 1 \"%s\"\n", e->opt->input_name);
  for (int i = 0; i <= p->ndrop; i++) {
    uint32_t end = i < p->ndrop ? p->drop_start[i] : (uint32_t)p->src.len;
    copy_input(e, &pos, end, out);
    if (i < p->ndrop) {
      const Marked *m = NULL;
      for (int j = 0; j < p->nmarked; j++)
        if (p->marked[j].start_byte == p->drop_start[i]) m = &p->marked[j];
      if (m) { // the prototypes (unless declared earlier), then back to the input's lines
        if (!m->proto_byte) emit_prototypes(e, m, out);
        if (e->opt->line_directives) {
          unsigned line = 1;
          for (uint32_t k = 0; k < p->drop_end[i]; k++) line += p->src.text[k] == '\n';
          buf_printf(out, "#line %u \"%s\"\n", line, e->opt->input_name);
        }
      } else { // keep the line count, so that #line stays true for the rest of the input
        for (uint32_t k = p->drop_start[i]; k < p->drop_end[i]; k++)
          if (p->src.text[k] == '\n') buf_puts(out, "\n");
      }
      pos = p->drop_end[i];
    }
  }
  if (p->src.len && p->src.text[p->src.len - 1] != '\n') buf_puts(out, "\n");
  buf_puts(out, "#if defined(__GNUC__)\n#pragma GCC diagnostic pop\n#endif\n"
                "#if defined(__NVCC__)\n#pragma nv_diagnostic pop\n#endif\n");
  if (e->opt->line_directives && e->opt->output_name) { // back to the generated file's lines
    int lines = 2;
    for (size_t k = 0; k < out->len; k++) lines += out->data[k] == '\n';
    buf_printf(out, "#line %d \"%s\"\n", lines, e->opt->output_name);
  }
}

// CUDA's vector types (float2, int4, ...) and dim3: names a CUDA translation unit declares.
static bool cuda_type_name(const char *s) {
  static const char *const base[] = {"char", "uchar", "short", "ushort", "int", "uint", "long",
                                     "ulong", "longlong", "ulonglong", "float", "double"};
  if (!strcmp(s, "dim3")) return true;
  size_t n = strlen(s);
  if (n < 2 || s[n - 1] < '1' || s[n - 1] > '4') return false;
  for (size_t i = 0; i < sizeof base / sizeof *base; i++)
    if (strlen(base[i]) == n - 1 && !strncmp(s, base[i], n - 1)) return true;
  return false;
}

static WalkNext global_array(Node *n, void *ctx) {
  const Node **found = ctx;
  if (n->kind == IR_EXT && n->u.ext.fn->global && n->u.ext.fn->ret->kind == TY_PTR) {
    int k = 0;
    while (found[k] && strcmp(found[k]->u.ext.fn->name, n->u.ext.fn->name)) k++;
    if (!found[k]) found[k] = n;
  }
  return WALK_INTO;
}

// CUDA: a device copy of each file-scope array the marked functions read, as many elements
// of the same type; the functions refresh it from the host's where they start.
static void emit_globals(Emit *e, Buf *out) {
  int cap = 1;
  for (int i = 0; i < e->prog->nmarked; i++) cap += e->prog->marked[i].primal->nvals;
  const Node **found = ARENA_ARRAY(e->a, const Node *, cap);
  for (int i = 0; i < e->prog->nmarked; i++)
    ir_walk(e->prog->marked[i].primal->body, &(Walker){.pre = global_array, .ctx = found});
  for (int k = 0; found[k]; k++) {
    const ExtFn *x = found[k]->u.ext.fn;
    if (x->unsized)
      diag_error(x->loc, "declare the array with its length (extern double t[N];), or translate "
                 "with --target=c", "the length of file-scope array '%s' is not known here: the "
                 "CUDA output cannot copy it to the device", x->name);
    const char *et = ty_c_name(e->a, x->ret->elem);
    buf_printf(out, "\n// the file-scope array '%s' on the device (copied from the host's when a "
               "generated function starts)\nstatic __device__ %s adsoac_g_%s[sizeof %s / sizeof(%s)];\n",
               x->name, et, x->name, x->name, et);
  }
}

// ---- --emit=header: the generated functions' prototypes, for C and C++ callers ----

// The struct types a signature names (by value or through pointers), each once, nested
// structs before the structs that hold them.
static void header_type(const Type *t, const Type **seen, int *n) {
  while (t->kind == TY_PTR) t = t->elem;
  if (t->kind != TY_STRUCT) return;
  for (int k = 0; k < *n; k++)
    if (seen[k] == t) return;
  for (int f = 0; f < t->nfields; f++) header_type(t->ftypes[f], seen, n);
  if (*n < 64) seen[(*n)++] = t;
}

void emit_header(const Prog *prog, const EmitOptions *opt, Buf *out) {
  Emit em = {0}, *e = &em;
  e->a = arena_new(0);
  pthread_cleanup_push(arena_release, e->a);
  e->opt = opt;
  e->prog = prog;
  e->header = true;
  bool cuda = opt->target == TARGET_CUDA;
  buf_printf(out, "// Generated by adsoac %s from %s (--emit=header --target=%s). Do not edit.\n",
             opt->version, opt->input_name, cuda ? "cuda" : "c");
  buf_printf(out, "// The functions that adsoac's translation of %s defines, declared for C and\n"
                  "// C++ callers: include this header and link the object of that output (%s).\n",
             opt->input_name, cuda ? "nvcc -c; pointers are device pointers" : "cc -c");
  buf_puts(out, "// The struct types the signatures use are defined below as adsoac read them\n"
                "// (same fields, same order); a file that has the input's own definitions\n"
                "// defines ADSOAC_USER_TYPES and includes them first.\n");
  Buf guard = {.arena = e->a};
  buf_puts(&guard, "ADSOAC_");
  const char *base = opt->output_name ? opt->output_name : opt->input_name;
  const char *slash = strrchr(base, '/');
  for (const char *c = slash ? slash + 1 : base; *c; c++)
    buf_printf(&guard, "%c", isalnum((unsigned char)*c) ? toupper((unsigned char)*c) : '_');
  buf_printf(out, "#ifndef %s\n#define %s\n\n#include <stddef.h>\n#include <stdint.h>\n", guard.data,
             guard.data);
  buf_puts(out, "#ifndef __cplusplus\n#include <stdbool.h>\n#endif\n");
  if (prog_uses_mpi(prog)) buf_puts(out, "#include <mpi.h> // (MPI_Comm)\n");
  const Type *types[64];
  int ntypes = 0;
  for (int i = 0; i < prog->nmarked; i++) {
    const Fn *fs[3] = {prog->marked[i].primal, prog->marked[i].vjp, prog->marked[i].jvp};
    for (int k = 0; k < 3 && !fs[k]->is_static; k++) {
      header_type(fs[k]->ret, types, &ntypes);
      for (int p = 0; p < fs[k]->nparams; p++) {
        Val v = fs[k]->params[p].val;
        header_type(fs[k]->vals[fs[k]->vals[v].parent ? fs[k]->vals[v].parent : v].type, types, &ntypes);
      }
    }
  }
  if (ntypes) {
    buf_puts(out, "\n#ifndef ADSOAC_USER_TYPES\n");
    for (int k = 0; k < ntypes; k++) {
      const Type *t = types[k];
      bool tagged = !strncmp(t->name, "struct ", 7);
      buf_printf(out, tagged ? "%s {\n" : "typedef struct {\n", t->name);
      for (int f = 0; f < t->nfields; f++)
        buf_printf(out, "  %s %s;\n", ty_c_name(e->a, t->ftypes[f]), t->fnames[f]);
      buf_printf(out, tagged ? "};\n" : "} %s;\n", t->name);
    }
    buf_puts(out, "#endif\n");
  }
  if (cuda)
    buf_puts(out, "\n// f_async, f_vjp_async, f_jvp_async: f, f_vjp, f_jvp on the caller's stream, their\n"
                  "// temporaries from a workspace of device memory (NULL: stream-ordered allocations;\n"
                  "// need: the bytes that a call with no allocation takes; one stream at a time per\n"
                  "// workspace), a result to a device pointer; 0, or 1 after recording an error.\n"
                  "#ifndef ADSOAC_WORKSPACE_DEFINED\n#define ADSOAC_WORKSPACE_DEFINED\n"
                  "typedef struct AdsoacWorkspace {\n  void *base;   // device memory for temporaries, or NULL\n"
                  "  size_t bytes; // its size\n"
                  "  size_t need;  // the most bytes of temporaries that a call with this workspace held at once\n"
                  "} AdsoacWorkspace;\n#endif\nstruct CUstream_st; // (cudaStream_t)\n");
  buf_puts(out, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
  if (cuda)
    buf_puts(out, "\n// Frees the device memory that the calling thread's calls of f, f_vjp, f_jvp keep between\n"
                  "// calls (their workspace).\nvoid adsoac_release_memory(void);\n");
  for (int i = 0; i < prog->nmarked; i++) {
    const Marked *m = &prog->marked[i];
    if (m->primal->is_static) {
      buf_printf(out, "\n// (%s is static: its functions are not visible outside the output)\n",
                 m->primal->name);
      continue;
    }
    buf_printf(out, "\n// %s: the parallel primal, reverse mode, forward mode ('#pragma adsoac grad' at "
                    "%s:%u)\n", m->primal->name, opt->input_name, m->loc.line);
    const Fn *fs[3] = {m->primal, m->vjp, m->jvp};
    for (int k = 0; k < 3; k++) {
      e->f = fs[k];
      e->nm = names_new(e->a, fs[k], prog, cuda);
      const char *sig = signature(e, fs[k]);
      if (!strncmp(sig, "extern \"C\" ", 11)) sig += 11;
      buf_printf(out, "%s;\n", sig);
    }
    for (int k = 0; cuda && k < 3; k++) {
      e->f = fs[k];
      e->nm = names_new(e->a, fs[k], prog, cuda);
      const char *sig = fn_signature(e, fs[k], 1);
      if (!strncmp(sig, "extern \"C\" ", 11)) sig += 11;
      buf_printf(out, "%s;\n", sig);
    }
  }
  buf_printf(out, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif // %s\n", guard.data);
  buf_free(&guard);
  pthread_cleanup_pop(1);
}

void emit_program(const Prog *prog, const EmitOptions *opt, Buf *out) {
  for (int i = 0; opt->target == TARGET_CUDA && i < prog->nmarked; i++)
    if (cuda_type_name(prog->marked[i].primal->name))
      diag_error(prog->marked[i].loc, "rename the function, or translate with --target=c",
                 "'%s' is the name of a CUDA type: the CUDA output cannot define a function of "
                 "that name", prog->marked[i].primal->name);
  Emit em = {0}, *e = &em;
  e->a = arena_new(0);
  pthread_cleanup_push(arena_release, e->a); // (also when an error ends the thread)
  e->block = emit_block;
  e->opt = opt;
  e->prog = prog;
  buf_printf(out, "// Generated by adsoac %s from %s (--target=%s). Do not edit.\n", opt->version,
             opt->input_name, opt->target == TARGET_CUDA ? "cuda" : "c");
  buf_printf(out, "// For each function f marked '#pragma adsoac grad': f (the parallel primal),\n"
                  "// f_vjp (reverse mode) and f_jvp (forward mode); see adsoac's README.\n");
  if (opt->check)
    buf_puts(out, "// The validation program (adsoac --emit=check): the translation, the original\n"
                  "// functions and a main.  Build: cc -std=c11 -O2 -fopenmp FILE -lm (OpenMP\n"
                  "// optional; add the objects of functions the input calls without their body).\n"
                  "// Run: ./a.out NAME=VALUE ... (an integer parameter: NAME=EXPR; an array:\n"
                  "// NAME=LEN[:LO:HI]; a float scalar: NAME=VALUE or NAME=LO:HI; seed=S fd=N h=H\n"
                  "// rtol=R atol=A only=FUNCTION).\n\n");
  else if (opt->target == TARGET_C)
    buf_puts(out, "// Compile with: cc -std=c11 -O2 -fopenmp -c FILE (OpenMP optional).\n\n");
  else
    buf_puts(out, "// Compile with: nvcc -O2 -c FILE. Pointers are device pointers.\n\n");
  // the generated functions first: the runtime's optional parts are those they call
  Buf gen = {.arena = e->a};
  if (opt->target == TARGET_CUDA) emit_globals(e, &gen);
  for (int i = 0; i < prog->nmarked; i++) {
    const Marked *m = &prog->marked[i];
    const char *src = arena_printf(e->a, "from '#pragma adsoac grad' at %s:%u", opt->input_name, m->loc.line);
    Buf fns = {.arena = e->a};
    e->kernels = (Buf){.arena = e->a};
    e->helpers = (Buf){.arena = e->a};
    e->primal = true;
    emit_fn(e, m->primal, arena_printf(e->a, "%s: primal, %s", m->primal->name, src), &fns);
    e->primal = false;
    emit_fn(e, m->vjp, arena_printf(e->a, "%s: reverse mode (vector-Jacobian product), %s", m->vjp->name, src), &fns);
    emit_fn(e, m->jvp, arena_printf(e->a, "%s: forward mode (Jacobian-vector product), %s", m->jvp->name, src), &fns);
    if (e->helpers.data) buf_puts(&gen, e->helpers.data);
    if (e->kernels.data) buf_puts(&gen, e->kernels.data);
    buf_puts(&gen, fns.data);
    buf_free(&fns);
    buf_free(&e->kernels);
    buf_free(&e->helpers);
  }
  emit_runtime(e, out, gen.data);
  if (opt->check_sched && opt->target == TARGET_C)
    buf_puts(out,
      "// --check-schedules: no two chunks of one phase of a two-phase loop update one element\n"
      "#include <stdint.h>\n"
      "static struct { const void *p; unsigned long long ep, ch; } adsoac_sched_tab[1 << 16];\n"
      "static unsigned long long adsoac_sched_ep;\n"
      "static ADSOAC_MAYBE_UNUSED unsigned long long adsoac_sched_epochs(void) {\n"
      "  unsigned long long e;\n"
      "#pragma omp atomic capture\n"
      "  { e = adsoac_sched_ep; adsoac_sched_ep += 2; }\n"
      "  return e + 1;\n"
      "}\n"
      "static ADSOAC_MAYBE_UNUSED void adsoac_sched_check(const void *p, unsigned long long ep,\n"
      "                                                   unsigned long long ch, const char *fn) {\n"
      "  int bad = 0;\n"
      "#pragma omp critical(adsoac_sched)\n"
      "  {\n"
      "    unsigned long h = ((unsigned long)(uintptr_t)p >> 3) * 2654435761UL % (1UL << 16), k = 0;\n"
      "    while (k < (1UL << 16) && adsoac_sched_tab[h].p && adsoac_sched_tab[h].p != p)\n"
      "      h = (h + 1) % (1UL << 16), k++;\n"
      "    if (k == (1UL << 16)) { memset(adsoac_sched_tab, 0, sizeof adsoac_sched_tab); h = 0; }\n"
      "    if (adsoac_sched_tab[h].p == p && adsoac_sched_tab[h].ep == ep && adsoac_sched_tab[h].ch != ch) bad = 1;\n"
      "    adsoac_sched_tab[h].p = p, adsoac_sched_tab[h].ep = ep, adsoac_sched_tab[h].ch = ch;\n"
      "  }\n"
      "  if (bad) {\n"
      "    fprintf(stderr, \"%s: two chunks of one phase updated the same element\\n\", fn);\n"
      "    abort();\n"
      "  }\n"
      "}\n\n");
  if (opt->check) buf_puts(out, "#define main adsoac_user_main // (the input's own main, if any)\n");
  emit_passthrough(e, out);
  buf_puts(out, "\n// ---- generated by adsoac ----\n");
  if (gen.data) buf_puts(out, gen.data);
  buf_free(&gen);
  pthread_cleanup_pop(1); // arena_free(e->a)
}
