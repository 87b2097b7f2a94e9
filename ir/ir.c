// ir/ir.c: types, operator tables, and the builder every pass uses to make IR.
#include <stdlib.h>
#include <string.h>

#include "ir.h"

Type ty_void = {TY_VOID, "void"}, ty_bool = {TY_BOOL, "int"}, ty_int = {TY_INT, "int"},
     ty_long = {TY_INT, "long"}, ty_float = {TY_FLOAT, "float"}, ty_double = {TY_DOUBLE, "double"};
Type ty_comm = {TY_INT, "MPI_Comm"};

const char *const node_kind_names[] = {
#define OP(k, name) name,
#include "ir_ops.h"
#undef OP
};

bool ty_is_float(const Type *t) {
  return t && (t->kind == TY_FLOAT || t->kind == TY_DOUBLE);
}

bool ty_is_int(const Type *t) {
  return t && (t->kind == TY_INT || t->kind == TY_BOOL);
}

// LP64, plain char signed (the targets' compilers on Linux); a bool value (a comparison's
// result) is a C int.
IntInfo ty_int_info(const Type *t) {
  if (t->kind == TY_BOOL) return (IntInfo){32, true};
  const char *s = t->name;
  if (!strcmp(s, "_Bool") || !strcmp(s, "bool")) return (IntInfo){1, false};
  if (!strcmp(s, "size_t") || !strcmp(s, "uintptr_t") || !strcmp(s, "uintmax_t"))
    return (IntInfo){64, false};
  if (!strcmp(s, "ssize_t") || !strcmp(s, "ptrdiff_t") || !strcmp(s, "intptr_t") ||
      !strcmp(s, "intmax_t"))
    return (IntInfo){64, true};
  if (!strncmp(s, "int", 3) && s[3] >= '1' && s[3] <= '9') return (IntInfo){atoi(s + 3), true};
  if (!strncmp(s, "uint", 4) && s[4] >= '1' && s[4] <= '9') return (IntInfo){atoi(s + 4), false};
  int bits = strstr(s, "char") ? 8 : strstr(s, "short") ? 16 : strstr(s, "long") ? 64 : 32;
  return (IntInfo){bits, !strstr(s, "unsigned")};
}

Type *ty_ptr(Arena *a, Type *elem, bool elem_const) {
  Type *t = ARENA_NEW(a, Type);
  t->kind = TY_PTR;
  t->elem = elem;
  t->elem_const = elem_const;
  return t;
}

const char *ty_c_name(Arena *a, const Type *t) {
  if (t->kind == TY_PTR)
    return arena_printf(a, "%s%s *", t->elem_const ? "const " : "", ty_c_name(a, t->elem));
  return t->name;
}

const char *binop_c(BinOp op) {
  static const char *const names[] = {"+",  "-",  "*",  "/",  "%", "<", "<=", ">",  ">=",
                                      "==", "!=", "&&", "||", "&", "|", "^",  "<<", ">>"};
  return names[op];
}

const char *unop_c(UnOp op) {
  static const char *const names[] = {"-", "!", "~"};
  return names[op];
}

bool binop_is_compare(BinOp op) {
  return op >= BIN_LT && op <= BIN_LOR;
}

const char *coll_name(CollKind k) {
  static const char *const names[] = {"MPI_Allreduce", "MPI_Reduce",    "MPI_Bcast",
                                      "MPI_Allgather", "MPI_Gather",    "MPI_Scatter",
                                      "MPI_Comm_rank", "MPI_Comm_size"};
  return names[k];
}

bool coll_rooted(CollKind k) {
  return k == COLL_REDUCE || k == COLL_BCAST || k == COLL_GATHER || k == COLL_SCATTER;
}

bool coll_reads(const Node *n, Val arr) {
  if (!arr) return false;
  switch (n->u.coll.mode) {
  case COLL_CALL: return n->u.coll.in == arr;
  case COLL_VJP: return n->u.coll.in == arr || n->u.coll.out_d == arr || n->u.coll.in_d == arr;
  case COLL_JVP: return n->u.coll.in == arr || n->u.coll.in_d == arr;
  }
  return true;
}

Val coll_writes(const Node *n) {
  switch (n->u.coll.mode) {
  case COLL_CALL: return n->u.coll.out;
  case COLL_VJP: return n->u.coll.in_d;
  case COLL_JVP: return n->u.coll.out_d;
  }
  return 0;
}

const char *redop_name(RedOp op) {
  static const char *const names[] = {"+", "*", "min", "max", "user"};
  return names[op];
}

static const struct {
  const char *name;
  int arity;
} math_table[] = {
#define MATH(id, name, ar) {name, ar},
    MATH_FUNCS(MATH)
#undef MATH
};

const char *math_name(MathFn fn, const Type *t) {
  static char fnames[M_COUNT][24];
  if (t && t->kind == TY_FLOAT) {
    if (!fnames[fn][0]) snprintf(fnames[fn], sizeof fnames[fn], "%sf", math_table[fn].name);
    return fnames[fn];
  }
  return math_table[fn].name;
}

int math_arity(MathFn fn) {
  return math_table[fn].arity;
}

bool math_lookup(const char *name, MathFn *fn, bool *is_f32) {
  size_t n = strlen(name);
  for (int i = 0; i < M_DIGAMMA; i++) {
    const char *m = math_table[i].name;
    size_t mn = strlen(m);
    if (n == mn && !memcmp(name, m, n)) {
      *fn = (MathFn)i;
      *is_f32 = false;
      return true;
    }
    if (n == mn + 1 && !memcmp(name, m, mn) && name[mn] == 'f') {
      *fn = (MathFn)i;
      *is_f32 = true;
      return true;
    }
  }
  return false;
}

// ---- functions, values, blocks ----

Fn *fn_new(Arena *a, const char *name, Loc loc) {
  Fn *f = ARENA_NEW(a, Fn);
  f->arena = a;
  f->name = name;
  f->loc = loc;
  f->ret = &ty_void;
  f->nvals = 1; // Val 0 is "no value"
  f->capvals = 64;
  f->vals = ARENA_ARRAY(a, ValInfo, f->capvals);
  f->defs = ARENA_ARRAY(a, Node *, f->capvals);
  f->body = block_new(a);
  return f;
}

Val fn_val(Fn *f, Type *t, const char *hint) {
  if (f->nvals == f->capvals) {
    ValInfo *v = ARENA_ARRAY(f->arena, ValInfo, f->capvals * 2);
    memcpy(v, f->vals, sizeof(ValInfo) * (size_t)f->capvals);
    f->vals = v;
    Node **d = ARENA_ARRAY(f->arena, Node *, f->capvals * 2);
    memcpy(d, f->defs, sizeof(Node *) * (size_t)f->capvals);
    f->defs = d;
    f->capvals *= 2;
  }
  f->vals[f->nvals] = (ValInfo){t, hint};
  f->defs[f->nvals] = NULL;
  return (Val)f->nvals++;
}

Val fn_field_val(Fn *f, Val parent, int field) {
  Type *pt = f->vals[parent].type, *st = pt->kind == TY_PTR ? pt->elem : pt;
  IR_ASSERT(st->kind == TY_STRUCT && field >= 0 && field < st->nfields);
  Type *t = st->ftypes[field];
  if (pt->kind == TY_PTR) t = ty_ptr(f->arena, t, pt->elem_const);
  Val v = fn_val(f, t, arena_printf(f->arena, "%s.%s", f->vals[parent].hint, st->fnames[field]));
  f->vals[v].parent = parent;
  f->vals[v].field = field;
  if (!f->vals[parent].fields) f->vals[parent].fields = ARENA_ARRAY(f->arena, Val, st->nfields);
  f->vals[parent].fields[field] = v;
  return v;
}

const char *val_struct_param(const Fn *f, Val v) {
  return f->vals[v].parent ? f->vals[f->vals[v].parent].hint : NULL;
}

Type *val_type(const Fn *f, Val v) {
  IR_ASSERT(v > 0 && (int)v < f->nvals);
  return f->vals[v].type;
}

Block *block_new(Arena *a) {
  return ARENA_NEW(a, Block);
}

// n becomes statement pos of b (the ones from pos on move up).
void block_insert(Arena *a, Block *b, int pos, Node *n) {
  block_push(a, b, n);
  for (int i = b->n - 1; i > pos; i--) b->stmts[i] = b->stmts[i - 1];
  b->stmts[pos] = n;
}

void block_push(Arena *a, Block *b, Node *n) {
  if (b->n == b->cap) {
    int cap = b->cap ? b->cap * 2 : 8;
    Node **s = ARENA_ARRAY(a, Node *, cap);
    if (b->n) memcpy(s, b->stmts, sizeof(Node *) * (size_t)b->n);
    b->stmts = s;
    b->cap = cap;
  }
  b->stmts[b->n++] = n;
}

void block_yield(Arena *a, Block *b, Val v) {
  Val *y = ARENA_ARRAY(a, Val, b->nyields + 1);
  if (b->nyields) memcpy(y, b->yields, sizeof(Val) * (size_t)b->nyields);
  y[b->nyields++] = v;
  b->yields = y;
}

Node *node_new(Arena *a, NodeKind k, Loc loc) {
  Node *n = ARENA_NEW(a, Node);
  n->kind = k;
  n->loc = loc;
  return n;
}

// ---- builder ----

Node *b_push(Builder *b, Node *n) {
  block_push(b->fn->arena, b->blk, n);
  if (n->out) b->fn->defs[n->out] = n;
  return n;
}

static Node *b_node(Builder *b, NodeKind k, Type *t) {
  Node *n = node_new(b->fn->arena, k, b->loc);
  if (t) n->out = fn_val(b->fn, t, NULL);
  return b_push(b, n);
}

Val b_const_f(Builder *b, Type *t, double v) {
  Node *n = b_node(b, IR_CONST, t);
  n->u.cst.f = v;
  return n->out;
}

Val b_const_i(Builder *b, Type *t, long long v) {
  Node *n = b_node(b, IR_CONST, t);
  n->u.cst.i = v;
  n->u.cst.f = (double)v;
  return n->out;
}

Val b_unop(Builder *b, UnOp op, Val a) {
  Type *t = op == UN_NOT ? &ty_int : val_type(b->fn, a);
  Node *n = b_node(b, IR_UNOP, t);
  n->u.un.op = op;
  n->u.un.a = a;
  return n->out;
}

// Usual arithmetic conversions, restricted to the types the IR has.
static Type *arith_type(Type *x, Type *y) {
  if (x->kind == TY_DOUBLE || y->kind == TY_DOUBLE) return &ty_double;
  if (x->kind == TY_FLOAT || y->kind == TY_FLOAT) return &ty_float;
  if (x->kind == TY_INT && strcmp(x->name, "int")) return x;
  if (y->kind == TY_INT && strcmp(y->name, "int")) return y;
  return &ty_int;
}

Val b_binop(Builder *b, BinOp op, Val a, Val c) {
  Type *t = binop_is_compare(op) ? &ty_int
            : (op == BIN_SHL || op == BIN_SHR) ? val_type(b->fn, a)
                                                : arith_type(val_type(b->fn, a), val_type(b->fn, c));
  Node *n = b_node(b, IR_BINOP, t);
  n->u.bin.op = op;
  n->u.bin.a = a;
  n->u.bin.b = c;
  return n->out;
}

Val b_call3(Builder *b, MathFn fn, Val a, Val c, Val d) {
  Node *n = b_node(b, IR_CALL, val_type(b->fn, a));
  n->u.call.fn = fn;
  n->u.call.a = a;
  n->u.call.b = c;
  n->u.call.c = d;
  return n->out;
}

Val b_call(Builder *b, MathFn fn, Val a, Val c) {
  return b_call3(b, fn, a, c, 0);
}

bool ext_active(const ExtFn *e, int k) {
  return ty_is_float(e->ptypes[k]);
}

Node *b_ext(Builder *b, const ExtFn *fn, ExtMode mode, const Val *args, int nargs, int nouts) {
  Node *n = node_new(b->fn->arena, IR_EXT, b->loc);
  n->u.ext.fn = fn;
  n->u.ext.mode = mode;
  n->u.ext.nargs = nargs;
  n->u.ext.args = ARENA_ARRAY(b->fn->arena, Val, nargs);
  memcpy(n->u.ext.args, args, sizeof(Val) * (size_t)nargs);
  if (mode != EXT_VJP) n->out = fn_val(b->fn, fn->ret, NULL);
  n->u.ext.nouts = nouts;
  n->u.ext.outs = ARENA_ARRAY(b->fn->arena, Val, nouts + 1);
  int k = 0;
  for (int i = 0; i < nouts; i++) {
    Type *t = fn->ret;
    if (mode == EXT_VJP) { // the adjoint of the i-th active parameter
      while (!ext_active(fn, k)) k++;
      t = fn->ptypes[k++];
    }
    n->u.ext.outs[i] = fn_val(b->fn, t, NULL);
  }
  return b_push(b, n);
}

Val b_cast(Builder *b, Type *t, Val a) {
  Node *n = b_node(b, IR_CAST, t);
  n->u.cast.a = a;
  return n->out;
}

Val b_read(Builder *b, Val arr, Val idx) {
  Node *n = b_node(b, IR_READ, val_type(b->fn, arr)->elem);
  n->u.mem.arr = arr;
  n->u.mem.idx = idx;
  return n->out;
}

void b_write(Builder *b, Val arr, Val idx, Val v) {
  Node *n = b_node(b, IR_WRITE, NULL);
  n->u.mem.arr = arr;
  n->u.mem.idx = idx;
  n->u.mem.v = v;
}

void b_acc(Builder *b, Val arr, Val idx, Val v, AccMode mode) {
  Node *n = b_node(b, IR_ACC, NULL);
  n->u.mem.arr = arr;
  n->u.mem.idx = idx;
  n->u.mem.v = v;
  n->u.mem.mode = mode;
}

// cond ? x : y as an IR_IF that yields x or y (both already computed).
Val b_select(Builder *b, Val cond, Val x, Val y) {
  Arena *a = b->fn->arena;
  Node *n = node_new(a, IR_IF, b->loc);
  n->u.ifs.cond = cond;
  n->u.ifs.then = block_new(a);
  n->u.ifs.els = block_new(a);
  block_yield(a, n->u.ifs.then, x);
  block_yield(a, n->u.ifs.els, y);
  n->u.ifs.nouts = 1;
  n->u.ifs.outs = ARENA_ARRAY(a, Val, 1);
  n->u.ifs.outs[0] = fn_val(b->fn, val_type(b->fn, x), NULL);
  b_push(b, n);
  return n->u.ifs.outs[0];
}

Val b_add(Builder *b, Val x, Val y) {
  if (!x) return y;
  if (!y) return x;
  return b_binop(b, BIN_ADD, x, y);
}

Val b_mul(Builder *b, Val x, Val y) {
  if (!x || !y) return 0;
  return b_binop(b, BIN_MUL, x, y);
}

Val b_neg(Builder *b, Val x) {
  return x ? b_unop(b, UN_NEG, x) : 0;
}

Val b_sub(Builder *b, Val x, Val y) {
  if (!y) return x;
  if (!x) return b_neg(b, y);
  return b_binop(b, BIN_SUB, x, y);
}

// ---- rewriting ----

typedef struct {
  Val from, to;
} Replace;

static void replace_val(Val *v, void *ctx) {
  const Replace *r = ctx;
  if (*v == r->from) *v = r->to;
}

static WalkNext replace_in_node(Node *n, void *ctx) {
  ir_node_uses(n, replace_val, ctx);
  return WALK_INTO;
}

static void replace_in_yields(Block *b, void *ctx) {
  for (int i = 0; i < b->nyields; i++) replace_val(&b->yields[i], ctx);
}

static void find_val(Val *v, void *ctx) {
  Replace *r = ctx;
  if (*v == r->from) r->to = 1;
}

static WalkNext find_in_node(Node *n, void *ctx) {
  ir_node_uses(n, find_val, ctx);
  return ((Replace *)ctx)->to ? WALK_STOP : WALK_INTO;
}

static void find_in_yields(Block *b, void *ctx) {
  for (int i = 0; i < b->nyields; i++) find_val(&b->yields[i], ctx);
}

bool ir_uses_val(const Block *b, Val v) {
  Replace r = {v, 0}; // (to: found)
  ir_walk(b, &(Walker){.pre = find_in_node, .block = find_in_yields, .ctx = &r});
  return r.to != 0;
}

void ir_replace_uses(Block *b, Val from, Val to) {
  Replace r = {from, to};
  ir_walk(b, &(Walker){.pre = replace_in_node, .block = replace_in_yields, .ctx = &r});
}
