// parser/lower_mpi.c: the MPI calls of a marked function (language.md §10).
//
// A collective becomes an IR_COLL between temporaries of its own: the send buffer (or, with
// MPI_IN_PLACE, the receive buffer) is copied into `in`, the collective fills `out`, and `out`
// is copied into the receive buffer; a buffer may be an array (a pointer, x + k, &x[k]) or a
// scalar variable (&s, one element).  The copies are ordinary maps, so what the rest of the
// translator knows about arrays (writes, checkpoints, adjoints) covers the program's buffers,
// and the collective itself only ever reads a temporary nothing writes again and writes one
// nothing wrote before.  MPI_Comm_rank and MPI_Comm_size give an int.  A call's result, where
// the program reads it, is MPI_SUCCESS (0): a failure ends the generated function with the
// runtime's error (adsoac_last_error), as every other failure does.
#include <string.h>

#include "lower.h"

static const char *const supported =
    "the collectives a marked function may call are MPI_Allreduce and MPI_Reduce (MPI_SUM, "
    "MPI_PROD, MPI_MIN, MPI_MAX), MPI_Bcast, MPI_Allgather, MPI_Gather and MPI_Scatter, and "
    "MPI_Comm_rank, MPI_Comm_size (language.md §10)";

bool is_mpi_name(const char *name) {
  return !strncmp(name, "MPI_", 4) || !strncmp(name, "PMPI_", 5);
}

static TSNode arg(TSNode args, int k) {
  return ts_node_named_child(args, (uint32_t)k);
}

// The element type of an MPI datatype (MPI_DOUBLE ...), read as the call names it.
static Type *mpi_datatype(Lower *L, TSNode e) {
  const char *s = node_text(L, e);
  if (!strcmp(s, "MPI_DOUBLE")) return &ty_double;
  if (!strcmp(s, "MPI_FLOAT")) return &ty_float;
  if (!strcmp(s, "MPI_INT")) return &ty_int;
  if (!strcmp(s, "MPI_LONG")) return &ty_long;
  diag_error(node_loc(L, e), "send double or float values (MPI_DOUBLE, MPI_FLOAT), or int or long "
             "counts (MPI_INT, MPI_LONG)", "MPI datatype '%s' is not supported", s);
}

static RedOp mpi_op(Lower *L, TSNode e) {
  const char *s = node_text(L, e);
  if (!strcmp(s, "MPI_SUM")) return RED_ADD;
  if (!strcmp(s, "MPI_PROD")) return RED_MUL;
  if (!strcmp(s, "MPI_MIN")) return RED_MIN;
  if (!strcmp(s, "MPI_MAX")) return RED_MAX;
  diag_error(node_loc(L, e), "use MPI_SUM, MPI_PROD, MPI_MIN or MPI_MAX",
             "MPI operation '%s' is not supported", s);
}

static Val comm_arg(Lower *L, TSNode e) {
  Val c = L->expr(L, e);
  if (val_type(L->fn, c) != &ty_comm)
    diag_error(node_loc(L, e), "pass the communicator (MPI_Comm comm, or MPI_COMM_WORLD)",
               "this is not a communicator");
  return c;
}

static bool in_place(Lower *L, TSNode e) {
  return ts_is(e, "identifier") && !strcmp(node_text(L, e), "MPI_IN_PLACE");
}

// `c ? MPI_IN_PLACE : buf` (or `c ? buf : MPI_IN_PLACE`): *where = the condition that the
// buffer is MPI_IN_PLACE, and buf returned; otherwise *where = 0.
static TSNode in_place_where(Lower *L, TSNode e, Val *where) {
  *where = 0;
  if (!ts_is(e, "conditional_expression")) return (TSNode){0};
  TSNode c = ts_field(e, "condition"), y = ts_field(e, "consequence"), z = ts_field(e, "alternative");
  if (in_place(L, y) == in_place(L, z)) return (TSNode){0};
  Val cv = L->expr(L, c);
  Type *ct = val_type(L->fn, cv);
  Val zero = ty_is_float(ct) ? b_const_f(&L->b, ct, 0) : b_const_i(&L->b, ct, 0);
  *where = b_binop(&L->b, BIN_NE, cv, zero);
  if (in_place(L, z)) *where = b_unop(&L->b, UN_NOT, *where);
  return in_place(L, y) ? z : y;
}

// A buffer of elements of type t: an array, or a scalar variable (&s) when count is 1.
// per_rank: the collective that fills it with count elements from each rank (an array).
static View buffer(Lower *L, TSNode e, Type *t, Val count, const char *what, const char *per_rank) {
  View v = view_expr(L, e, what);
  Loc loc = node_loc(L, e);
  bool send = !strcmp(what, "the send buffer");
  if (v.ref >= 0 && per_rank)
    diag_error(loc, send ? "send from an array of count elements for each rank"
                         : "receive into an array of count elements for each rank",
               "'%s' %s the variable '%s'", per_rank, send ? "from" : "into", L->vars[v.ref]->name);
  if (v.ref >= 0) {
    Var *s = L->vars[v.ref];
    if (s->kind != VAR_SCALAR)
      diag_error(loc, "pass a double or float variable, or an array", "%s is not a number", what);
    const Node *d = L->fn->defs[count];
    if (d && d->kind == IR_CAST) d = L->fn->defs[d->u.cast.a];
    if (!d || d->kind != IR_CONST || d->u.cst.i != 1)
      diag_error(loc, "pass an array for more than one element",
                 "%s is the variable '%s', and the count is not 1", what, s->name);
    if (s->type->kind != t->kind || strcmp(s->type->name, t->name))
      diag_error(loc, NULL, "%s is of type '%s', the datatype says '%s'", what, s->type->name,
                 t->name);
    return v;
  }
  if (v.nbase > 1 || v.ndim > 0 || struct_view(&v))
    diag_error(loc, "pass a pointer into one array of numbers", "%s is not a pointer into one "
               "array of numbers", what);
  Type *et = v.type->elem;
  if (et->kind != t->kind || strcmp(et->name, t->name))
    diag_error(loc, NULL, "%s holds '%s' elements, the datatype says '%s'", what, et->name,
               t->name);
  return v;
}

static Val temp(Lower *L, Type *t, Val n, const char *hint) {
  Node *a = node_new(L->a, IR_ALLOC, L->b.loc);
  a->u.alloc.n = n;
  a->out = fn_val(L->fn, ty_ptr(L->a, t, false), hint);
  b_push(&L->b, a);
  return a->out;
}

static void release(Lower *L, Val arr) {
  Node *f = node_new(L->a, IR_FREE, L->b.loc);
  f->u.copy.dst = arr;
  b_push(&L->b, f);
}

// tmp[0:n] = the buffer's elements
// (bcast: a scalar assigned under an if, on the root, is sent as its value there or 0, which
// MPI overwrites on the other ranks)
static void copy_in(Lower *L, Val tmp, const View *src, Val n, Loc loc, const char *what,
                    bool bcast) {
  Type *t = L->fn->vals[tmp].type;
  if (src->ref >= 0) {
    Var *s = L->vars[src->ref];
    Val x = bcast && !s->val && s->partial.line && s->pval && s->pval != PVAL_LOST ? s->pval
            : view_read(L, src, b_const_i(&L->b, &ty_int, 0), loc);
    b_write(&L->b, tmp, b_const_i(&L->b, &ty_long, 0), x);
    return;
  }
  View v = {tmp, t, 0, -1};
  lower_copy(L, &v, src, n, loc, what);
}

// the buffer's elements = tmp[0:n]
static void copy_out(Lower *L, const View *dst, Val tmp, Val n, Loc loc, const char *what) {
  if (dst->ref >= 0) {
    Var *s = L->vars[dst->ref];
    s->val = b_read(&L->b, tmp, b_const_i(&L->b, &ty_long, 0));
    L->fn->vals[s->val].hint = s->name;
    return;
  }
  if (dst->type->elem_const) diag_error(loc, NULL, "%s receives into a const array", what);
  refuse_global_array(L, dst->arr, loc);
  View v = {tmp, L->fn->vals[tmp].type, 0, -1};
  lower_copy(L, dst, &v, n, loc, what);
}

static Node *coll(Lower *L, CollKind k, Val comm) {
  Node *n = node_new(L->a, IR_COLL, L->b.loc);
  n->u.coll.kind = k;
  n->u.coll.comm = comm;
  return n;
}

// Where each collective's arguments are (-1: none; the communicator is the last).
static const struct {
  int nargs, send, recv, count, type, rcount, rtype, op, root;
} layout[] = {
    [COLL_ALLREDUCE] = {6, 0, 1, 2, 3, -1, -1, 4, -1}, // (send, recv, count, type, op, comm)
    [COLL_REDUCE] = {7, 0, 1, 2, 3, -1, -1, 4, 5},     // (..., op, root, comm)
    [COLL_BCAST] = {5, 0, 0, 1, 2, -1, -1, -1, 3},     // (buf, count, type, root, comm)
    [COLL_ALLGATHER] = {7, 0, 3, 1, 2, 4, 5, -1, -1},  // (send, count, type, recv, count, type, comm)
    [COLL_GATHER] = {8, 0, 3, 1, 2, 4, 5, -1, 6},      // (..., root, comm)
    [COLL_SCATTER] = {8, 0, 3, 1, 2, 4, 5, -1, 6},
};

static Val rank_of(Lower *L, Val comm) {
  Node *r = coll(L, COLL_RANK, comm);
  r->out = fn_val(L->fn, &ty_int, "rank");
  b_push(&L->b, r);
  return r->out;
}

// The copy into tmp (out: from tmp) of an array buffer, where cond holds (on the root only,
// where the program may pass no buffer at all elsewhere); with `alt`, from alt elsewhere.
static void copy_where(Lower *L, Val cond, const View *v, const View *alt, Val tmp, Val n,
                       Loc loc, const char *what, bool out) {
  Node *f = node_new(L->a, IR_IF, loc);
  f->u.ifs.cond = cond;
  f->u.ifs.then = block_new(L->a);
  f->u.ifs.els = block_new(L->a);
  f->u.ifs.outs = ARENA_ARRAY(L->a, Val, 1);
  Block *outer = L->b.blk;
  L->b.blk = f->u.ifs.then;
  if (out) copy_out(L, v, tmp, n, loc, what);
  else copy_in(L, tmp, v, n, loc, what, false);
  if (alt) {
    L->b.blk = f->u.ifs.els;
    copy_in(L, tmp, alt, n, loc, what, false);
  }
  L->b.blk = outer;
  b_push(&L->b, f);
}

// A collective over a send and a receive buffer (MPI_Bcast: one buffer, both): in, out and
// the copies.  The root's buffers of MPI_Reduce and MPI_Gather (the result) and of
// MPI_Scatter (what it sends) are copied on the root only.
static void data_coll(Lower *L, TSNode call, CollKind k, const char *name) {
  TSNode args = ts_field(call, "arguments");
  Loc loc = node_loc(L, call);
  int want = layout[k].nargs;
  if ((int)ts_node_named_child_count(args) != want)
    diag_error(loc, NULL, "'%s' takes %d arguments", name, want);
  // MPI_Allgather(MPI_IN_PLACE, ...): each rank's block is already in place in the receive
  // buffer; the send count and datatype are not read
  TSNode send = arg(args, layout[k].send), recv = arg(args, layout[k].recv);
  while (ts_is(send, "parenthesized_expression")) send = ts_node_named_child(send, 0);
  bool gather_in_place = k == COLL_ALLGATHER && in_place(L, send);
  int ti = gather_in_place ? layout[k].rtype : layout[k].type;
  int ci = gather_in_place ? layout[k].rcount : layout[k].count;
  Type *t = mpi_datatype(L, arg(args, ti));
  Val count = convert(L, L->expr(L, arg(args, ci)), &ty_long);
  if (layout[k].rcount >= 0 && !gather_in_place) {
    Type *rt = mpi_datatype(L, arg(args, layout[k].rtype));
    Val rc = convert(L, L->expr(L, arg(args, layout[k].rcount)), &ty_long);
    Val x = rc, y = count; // (the same variable or the same constant, converted to long)
    const Node *a = L->fn->defs[x], *b = L->fn->defs[y];
    if (a && a->kind == IR_CAST) x = a->u.cast.a, a = L->fn->defs[x];
    if (b && b->kind == IR_CAST) y = b->u.cast.a, b = L->fn->defs[y];
    bool same = x == y || (a && b && a->kind == IR_CONST && b->kind == IR_CONST &&
                           a->u.cst.i == b->u.cst.i);
    if (rt != t || !same)
      diag_error(node_loc(L, arg(args, layout[k].rcount)), "send and receive the same count of "
                 "the same datatype", "'%s' with a receive count or datatype other than the "
                 "send's is not supported", name);
  }
  Node *n = coll(L, k, comm_arg(L, arg(args, want - 1)));
  n->u.coll.count = count;
  if (layout[k].op >= 0) n->u.coll.op = mpi_op(L, arg(args, layout[k].op));
  if (layout[k].root >= 0) n->u.coll.root = convert(L, L->expr(L, arg(args, layout[k].root)), &ty_int);
  // MPI_Reduce(rank == root ? MPI_IN_PLACE : buf, ...), MPI_Gather likewise: the root's data
  // from the receive buffer (place_if: where in place; other: the buffer elsewhere)
  Val place_if = 0, recv_if = 0;
  TSNode other = {0};
  if (k == COLL_REDUCE || k == COLL_ALLREDUCE || k == COLL_GATHER)
    other = in_place_where(L, send, &place_if);
  // MPI_Scatter(x, ..., rank == root ? MPI_IN_PLACE : y, ...): the root's block stays where
  // it is in the send buffer; the others receive into y
  while (ts_is(recv, "parenthesized_expression")) recv = ts_node_named_child(recv, 0);
  if (k == COLL_SCATTER) {
    TSNode y = in_place_where(L, recv, &recv_if);
    if (recv_if) recv = y;
  }
  bool inplace = k != COLL_BCAST && in_place(L, send);
  if (k != COLL_BCAST && in_place(L, recv))
    diag_error(node_loc(L, recv), k == COLL_SCATTER ? "on the root only (rank == root ? "
               "MPI_IN_PLACE : buf): the others receive into a buffer" : "pass MPI_IN_PLACE as "
               "the send buffer", "MPI_IN_PLACE as the receive buffer%s",
               k == COLL_SCATTER ? " on every rank" : "");
  if (inplace && k != COLL_ALLREDUCE && k != COLL_ALLGATHER)
    diag_error(node_loc(L, send), k == COLL_SCATTER ? "receive into a buffer of its own"
               : "send from a buffer of its own where the rank is not the root (rank == root ? "
                 "MPI_IN_PLACE : buf)", "'%s' with MPI_IN_PLACE %s is not supported", name,
               k == COLL_SCATTER ? "(a scatter)" : "on every rank");
  L->b.loc = loc;
  Val inn = count, outn = count; // (count per rank: a gather's result, a scatter's source)
  if (k == COLL_ALLGATHER || k == COLL_GATHER || k == COLL_SCATTER) {
    Node *p = coll(L, COLL_SIZE, n->u.coll.comm);
    p->out = fn_val(L->fn, &ty_int, "nranks");
    b_push(&L->b, p);
    Val all = b_binop(&L->b, BIN_MUL, count, convert(L, p->out, &ty_long));
    if (k == COLL_SCATTER) inn = all;
    else outn = all;
  }
  bool root_out = k == COLL_REDUCE || k == COLL_GATHER, root_in = k == COLL_SCATTER;
  Val is_root = 0;
  if (root_out || root_in)
    is_root = b_binop(&L->b, BIN_EQ, rank_of(L, n->u.coll.comm), n->u.coll.root);
  View dst = buffer(L, recv, t, outn, k == COLL_BCAST ? "the buffer" : "the receive buffer",
                    k == COLL_ALLGATHER || k == COLL_GATHER ? name : NULL);
  View src = k == COLL_BCAST || inplace ? dst
             : buffer(L, place_if ? other : send, t, inn, "the send buffer",
                      k == COLL_SCATTER ? name : NULL);
  View here = dst; // (in place: where this rank's block is in the receive buffer)
  if ((inplace || place_if) && (k == COLL_ALLGATHER || k == COLL_GATHER)) {
    Val who = k == COLL_GATHER ? n->u.coll.root : rank_of(L, n->u.coll.comm);
    Val at = b_binop(&L->b, BIN_MUL, convert(L, who, &ty_long), count);
    here.off = here.off ? b_binop(&L->b, BIN_ADD, convert(L, here.off, &ty_long), at) : at;
    here.row = 0;
    if (inplace) src = here;
  }
  if (k != COLL_BCAST && !inplace && !place_if && src.ref < 0 && dst.ref < 0 && src.arr == dst.arr)
    diag_error(loc, "pass MPI_IN_PLACE as the send buffer", "the send and receive buffers are "
               "parts of one array");
  L->b.loc = loc;
  n->u.coll.in = temp(L, t, inn, "mpi_in");
  if (place_if) copy_where(L, place_if, &here, &src, n->u.coll.in, inn, loc, name, false);
  else if (root_in) copy_where(L, is_root, &src, NULL, n->u.coll.in, inn, loc, name, false);
  else copy_in(L, n->u.coll.in, &src, inn, loc, name, k == COLL_BCAST);
  L->b.loc = loc;
  n->u.coll.out = temp(L, t, outn, "mpi_out");
  b_push(&L->b, n);
  // the result where it is kept: a reduce's and a gather's on the root, an in-place
  // scatter's off the root (where the condition does not hold), the others' everywhere
  Val keep = root_out ? is_root : recv_if ? b_unop(&L->b, UN_NOT, recv_if) : 0;
  if (keep && dst.ref >= 0) { // (a scalar: its value elsewhere stays, if it had one)
    Var *s = L->vars[dst.ref];
    Val got = b_read(&L->b, n->u.coll.out, b_const_i(&L->b, &ty_long, 0));
    s->val = s->val ? b_select(&L->b, keep, got, s->val) : got;
    L->fn->vals[s->val].hint = s->name;
  } else if (keep) {
    copy_where(L, keep, &dst, NULL, n->u.coll.out, outn, loc, name, true);
  } else {
    copy_out(L, &dst, n->u.coll.out, outn, loc, name);
  }
  L->b.loc = loc;
  release(L, n->u.coll.in);
  release(L, n->u.coll.out);
}

// MPI_Comm_rank(comm, &r), MPI_Comm_size(comm, &p)
static void comm_query(Lower *L, TSNode call, CollKind k, const char *name) {
  TSNode args = ts_field(call, "arguments");
  Loc loc = node_loc(L, call);
  if (ts_node_named_child_count(args) != 2) diag_error(loc, NULL, "'%s' takes 2 arguments", name);
  Node *n = coll(L, k, comm_arg(L, arg(args, 0)));
  View v = view_expr(L, arg(args, 1), "the result");
  Var *s = v.ref >= 0 ? L->vars[v.ref] : NULL;
  if (!s || s->kind != VAR_SCALAR || strcmp(s->type->name, "int"))
    diag_error(node_loc(L, arg(args, 1)), "pass the address of an int variable (&rank)",
               "'%s' stores into an int variable", name);
  L->b.loc = loc;
  n->out = fn_val(L->fn, &ty_int, s->name);
  b_push(&L->b, n);
  s->val = n->out;
}

// An MPI call as a statement; false: the name is not MPI's.
bool lower_mpi_call(Lower *L, TSNode call) {
  const char *name = node_text(L, ts_field(call, "function"));
  if (!is_mpi_name(name)) return false;
  Loc loc = node_loc(L, call);
  if (L->par)
    diag_error(loc, "call it at the function's level, before or after the loop",
               "'%s' inside a parallel loop (language.md §10: collectives are made at the "
               "function's level)", name);
  for (CollKind k = COLL_ALLREDUCE; k <= COLL_SIZE; k++)
    if (!strcmp(name, coll_name(k))) {
      if (k == COLL_RANK || k == COLL_SIZE) comm_query(L, call, k, name);
      else data_coll(L, call, k, name);
      return true;
    }
  diag_error(loc, "make the call outside the marked function", "'%s' has no derivative: %s",
             name, supported);
}

// MPI_COMM_WORLD, MPI_COMM_SELF: the communicator (0: not one of them).
Val mpi_comm_constant(Lower *L, TSNode e) {
  const char *name = node_text(L, e);
  if (strcmp(name, "MPI_COMM_WORLD") && strcmp(name, "MPI_COMM_SELF")) return 0;
  return lower_global_value(L, name, &ty_comm, node_loc(L, e));
}
