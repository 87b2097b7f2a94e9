// parser/parse.c: the translation unit: find `#pragma adsoac grad` functions, lower them.
//
//   translation_unit: { preproc_call | function_definition | declaration | ... }
//   function_definition: type declarator: function_declarator(declarator, parameters) body
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "macro.h"

extern const TSLanguage *tree_sitter_c(void);

// One more parameter of the IR function.
static Param *param_push(Lower *L, int *cap) {
  Fn *f = L->fn;
  if (f->nparams == *cap) {
    *cap = *cap ? 2 * *cap : 8;
    Param *ps = ARENA_ARRAY(L->a, Param, *cap);
    if (f->nparams) memcpy(ps, f->params, sizeof(Param) * (size_t)f->nparams);
    f->params = ps;
  }
  Param *p = &f->params[f->nparams++];
  *p = (Param){0};
  return p;
}

// A struct parameter (language.md §2): passed by value, one scalar parameter of the IR per
// field, bound to a struct variable of the body; an array of structs (T *p), one array per
// field, bound to a pointer variable that names the struct parameter (its fields: ValInfo).
static void lower_struct_param(Lower *L, const char *name, Loc loc, Type *t, bool is_array,
                               int *cap, TSNode body) {
  Val parent = fn_val(L->fn, t, name), fields[64];
  Type *st = is_array ? t->elem : t;
  for (int k = 0; k < st->nfields; k++) {
    Param *p = param_push(L, cap);
    p->val = fields[k] = fn_field_val(L->fn, parent, k);
    p->name = arena_printf(L->a, "%s.%s", name, st->fnames[k]);
    p->type = val_type(L->fn, p->val);
    p->loc = loc;
    p->is_array = is_array;
    p->is_float = ty_is_float(st->ftypes[k]);
  }
  if (is_array) {
    View v = {parent, t, 0, -1};
    ptr_var_push(L, name, t, &v, assigned_in(L, body, name), loc);
  } else {
    struct_var_push(L, name, t, fields, loc);
  }
}

// parameter_declaration: type declarator   (declarator: identifier | pointer_declarator |
// array_declarator, possibly with type qualifiers)
static void lower_param(Lower *L, TSNode pd, int *cap, TSNode body) {
  TSNode tn = ts_field(pd, "type"), d = ts_field(pd, "declarator");
  bool is_const = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(pd); i++) {
    TSNode q = ts_node_named_child(pd, i);
    if (ts_is(q, "type_qualifier") && !strcmp(node_text(L, q), "const")) is_const = true;
  }
  if (ts_node_is_null(d))
    diag_error(node_loc(L, pd), "name every parameter", "unnamed parameter");
  Type *base = lower_type(L, tn);
  DeclDims dd;
  declarator_dims(L, d, &dd);
  int depth = dd.n > 0;
  d = dd.ident;
  if (dd.n > 1 && base->kind == TY_STRUCT)
    diag_error(node_loc(L, pd), "pass an array of structs (T *p) indexed p[i*m + j]",
               "arrays of arrays of structs are not supported");
  if (base->kind == TY_VOID)
    diag_error(node_loc(L, pd), NULL, "void parameters are not supported");
  check_not_macro(L, d);
  const char *name = node_text(L, d);
  Type *t = depth == 1 ? ty_ptr(L->a, base, is_const) : base;
  if (base->kind == TY_STRUCT) {
    lower_struct_param(L, name, node_loc(L, d), t, depth == 1, cap, body);
    return;
  }
  Param *p = param_push(L, cap);
  p->name = name;
  p->loc = node_loc(L, d);
  p->is_array = depth == 1;
  p->type = t;
  p->is_float = ty_is_float(base);
  p->val = fn_val(L->fn, p->type, p->name);
  if (p->is_array) { // (a pointer the body moves gets an offset variable)
    View v = {p->val, p->type, 0, -1, dd.n - 1};
    for (int k = 1; k < dd.n; k++) { // an array of arrays: its rows' extents
      L->b.loc = node_loc(L, dd.size[k]);
      v.dims[k - 1] = L->expr(L, dd.size[k]);
      if (!ty_is_int(val_type(L->fn, v.dims[k - 1])))
        diag_error(node_loc(L, dd.size[k]), NULL, "an array extent is not an integer");
      const Node *c = L->fn->defs[v.dims[k - 1]];
      L->fn->vals[p->val].avla |= !c || c->kind != IR_CONST;
    }
    // (a flat array declared with its length, double x[N], keeps that declarator: gcc warns
    // when a definition declares as a pointer what a prototype declared as an array)
    if (dd.n > 1 || (dd.array && !ts_node_is_null(dd.size[0]))) {
      L->fn->vals[p->val].adecl = dd.fmt;
      // the same with the extents' values, in the same form (gcc's -Warray-parameter)
      Buf num = {.arena = L->a};
      bool ptr = !strncmp(dd.fmt, "(*%s)", 5), known = true;
      buf_puts(&num, ptr ? "(*%s)" : "%s");
      for (int k = ptr ? 1 : 0; k < dd.n && known; k++) {
        if (ts_node_is_null(dd.size[k])) {
          buf_puts(&num, "[]");
          continue;
        }
        if (!k) { // (not lowered: a literal, or a macro whose text is one)
          const char *t = node_text(L, dd.size[0]), *m = NULL;
          if (ts_is(dd.size[0], "identifier") && L->macros)
            m = macro_text(L->macros, t, use_byte(L, dd.size[0]));
          char *end;
          long long c = strtoll(m ? m : t, &end, 0);
          known = end != (m ? m : t) && !*end && c > 0;
          if (known) buf_printf(&num, "[%lld]", c);
          continue;
        }
        const Node *c = L->fn->defs[v.dims[k - 1]];
        known = c && c->kind == IR_CONST && ty_is_int(val_type(L->fn, v.dims[k - 1]));
        if (known) buf_printf(&num, "[%lld]", c->u.cst.i);
      }
      if (known) L->fn->vals[p->val].adecl_num = arena_strdup(L->a, num.data);
      buf_free(&num);
    }
    L->fn->vals[p->val].arows = dd.n > 1;
    ptr_var_push(L, p->name, p->type, &v, assigned_in(L, body, p->name), p->loc);
  } else {
    var_push(L, (Var){p->name, p->type, VAR_SCALAR, p->val, p->loc});
  }
}

static void lower_params(Lower *L, TSNode fdecl, TSNode body) {
  TSNode plist = ts_field(fdecl, "parameters");
  uint32_t k = ts_node_named_child_count(plist);
  int cap = 0;
  L->fn->params = ARENA_ARRAY(L->a, Param, 1);
  for (uint32_t i = 0; i < k; i++) {
    TSNode pd = ts_node_named_child(plist, i);
    if (ts_is(pd, "comment")) continue;
    if (ts_is(pd, "variadic_parameter"))
      diag_error(node_loc(L, pd), NULL, "variadic functions are not supported");
    if (k == 1 && !strcmp(node_text(L, pd), "void")) break;
    lower_param(L, pd, &cap, body);
  }
}

static WalkNext writes_to(Node *n, void *ctx) {
  Val arr = *(Val *)ctx;
  switch (n->kind) {
  case IR_WRITE: case IR_UPDATE: return n->u.mem.arr == arr ? WALK_STOP : WALK_INTO;
  case IR_COLL: return coll_writes(n) == arr ? WALK_STOP : WALK_INTO;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ: case IR_ACC:
  case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
  case IR_RETURN:
    return WALK_INTO;
  }
  UNREACHABLE();
}

static bool block_writes(const Block *b, Val arr) {
  return ir_walk(b, &(Walker){.pre = writes_to, .ctx = &arr});
}

// The parameter's name as C declares it: a struct parameter's, for its fields.
static const char *c_param_name(const Fn *f, const Param *p) {
  const char *s = val_struct_param(f, p->val);
  return s ? s : p->name;
}

// Activity of the parameters (language.md §2): written float arrays are always active, read
// ones and float scalars unless wrt(...) leaves them out.  A struct parameter is one: its
// float fields are all active when one of them is written or the struct is listed (its
// integer fields never are).
static void set_activity(Lower *L, const Pragma *pr) {
  Fn *f = L->fn;
  for (int i = 0; i < pr->nwrt; i++) {
    bool found = false, is_float = false;
    for (int j = 0; j < f->nparams; j++)
      if (!strcmp(c_param_name(f, &f->params[j]), pr->wrt[i])) {
        found = true;
        is_float |= f->params[j].is_float;
      }
    if (found && !is_float)
      diag_error(pr->wrt_locs[i], "only float and double parameters (and pointers to them, and "
                 "structs with float or double fields) have derivatives",
                 "wrt names '%s', which is not floating-point", pr->wrt[i]);
    if (!found)
      diag_error(pr->wrt_locs[i], "wrt(...) lists parameters of the function",
                 "'%s' is not a parameter of '%s'", pr->wrt[i], f->name);
  }
  for (int j = 0; j < f->nparams; j++) {
    Param *p = &f->params[j];
    p->written = p->is_array && block_writes(f->body, p->val);
  }
  for (int j = 0; j < f->nparams; j++) {
    Param *p = &f->params[j];
    const char *name = c_param_name(f, p);
    bool written = false, listed = !pr->has_wrt;
    for (int k = 0; k < f->nparams; k++) // (the struct's other fields)
      written |= f->params[k].is_float && f->params[k].written &&
                 !strcmp(c_param_name(f, &f->params[k]), name);
    for (int i = 0; i < pr->nwrt; i++) listed |= !strcmp(pr->wrt[i], name);
    p->active = p->is_float && (written || listed);
  }
}

typedef struct {
  FnDef *fndefs; // (uthash, by name)
  UserOp *ops;   // (uthash, by name)
  ExtDef *exts;  // (uthash, by name)
  GlobalDef *globals; // (uthash, by name)
  TypeTable types;
  MacroTable *macros;
} Defs;

// T op(T, T), T float or double (language.md §4).
static Type *operator_type(Arena *a, const Src *src, const Defs *defs, TSNode def,
                           const char *what) {
  Lower L = {a, src};
  L.types = &defs->types;
  TSNode d = ts_field(def, "declarator");
  TSNode params = ts_field(d, "parameters");
  Loc loc = ts_loc(src, def);
  TSNode tn = ts_field(def, "type");
  Type *t = lower_type(&L, tn);
  bool ok = ts_is(d, "function_declarator") && (ty_is_float(t) || t->kind == TY_STRUCT) &&
            ts_node_named_child_count(params) == 2;
  for (uint32_t i = 0; ok && i < 2; i++) {
    TSNode pd = ts_node_named_child(params, i);
    ok = ts_is(pd, "parameter_declaration") && ts_is(ts_field(pd, "declarator"), "identifier") &&
         lower_type(&L, ts_field(pd, "type")) == t;
  }
  if (!ok)
    diag_error(loc, "an operator is a function T op(T a, T b) with T float, double, or a "
               "struct of them",
               "%s does not have the signature of an operator", what);
  for (int i = 0; t->kind == TY_STRUCT && i < t->nfields; i++)
    if (!ty_is_float(t->ftypes[i])) // (its value is a tuple of the derivative rules)
      diag_error(loc, "an operator's struct has only float and double fields: keep the integer "
                 "fields in another struct, or in variables of their own",
                 "%s works on '%s', whose field '%s' is of type '%s'", what, t->name,
                 t->fnames[i], t->ftypes[i]->name);
  return t;
}

static void add_operator(Arena *a, const Src *src, Defs *d, const Pragma *pr, TSNode def) {
  TSNode decl = ts_field(def, "declarator");
  if (ts_node_is_null(decl) || !ts_is(decl, "function_declarator") ||
      ts_node_is_null(ts_field(decl, "declarator")))
    diag_error(ts_loc(src, def), "an operator is a function T op(T a, T b) with T float, double, "
               "or a struct of them", "#pragma adsoac operator is not followed by a function "
               "definition with a parameter list");
  const char *name = ts_text(a, src, ts_field(decl, "declarator"));
  UserOp op = {.name = name, .call = name, .def = def, .neutral = pr->neutral,
               .neutral_loc = pr->neutral_loc, .loc = ts_loc(src, def),
               .commutative = pr->commutative, .inverse = pr->inverse};
  op.type = operator_type(a, src, d, def, arena_printf(a, "operator '%s'", name));
  if (pr->inverse) {
    TSNode inv = fn_def(d->fndefs, pr->inverse);
    if (ts_node_is_null(inv))
      diag_error(pr->inverse_loc, "define the inverse T inv(T a, T b), returning x with op(x, b) == a, "
                 "in this file", "inverse function '%s' is not defined in this file", pr->inverse);
    if (operator_type(a, src, d, inv, arena_printf(a, "inverse '%s'", pr->inverse)) != op.type)
      diag_error(pr->inverse_loc, NULL, "inverse '%s' works on another type than '%s'",
                 pr->inverse, name);
  }
  UserOp *old;
  HASH_FIND_STR(d->ops, name, old);
  if (old) return; // (the first of two of a name is the one found)
  UserOp *u = ARENA_NEW(a, UserOp);
  *u = op;
  TABLE_ADD(a, d->ops, name, u);
}

// ---- #pragma omp declare reduction (language.md 11) ----
//
//   #pragma omp declare reduction(ID : TYPE : COMBINER) [initializer(omp_priv = E)]
//
// read as a declared operator named ID, so that reduction(ID: v) is reduce(ID: v): a combiner
// omp_out = fn(omp_out, omp_in) (either order: OpenMP combines in any order) is the operator
// fn with neutral E (0 without an initializer, as OpenMP's default one); a combiner that is
// +, *, fmax/fmin or the ?: forms of max and min is that operator.

// text without blanks (comments aside, as the pragma's own)
static char *omp_squeeze(Arena *a, const char *s, size_t n) {
  char *o = arena_alloc(a, n + 1), *q = o;
  for (size_t i = 0; i < n; i++)
    if (!isspace((unsigned char)s[i]) && s[i] != '\\') *q++ = s[i];
  *q = 0;
  return o;
}

// After `name(` at *p: the text to its closing parenthesis (NULL: none), *p past it.
static const char *omp_paren(Arena *a, const char **p, const char *name) {
  size_t n = strlen(name);
  if (strncmp(*p, name, n) || (*p)[n] != '(') return NULL;
  const char *b = *p + n + 1, *q = b;
  for (int depth = 1; *q && depth; q++) depth += (*q == '(') - (*q == ')');
  if (q[-1] != ')') return NULL;
  *p = q;
  return arena_strndup(a, b, (size_t)(q - 1 - b));
}

// The operator a combiner computes, "+", "*", "max", "min", or (*fn) the name of the function
// it calls; NULL: none of those forms.
static const char *omp_combiner(Arena *a, const char *c, const char **fn) {
  *fn = NULL;
  if (!strcmp(c, "omp_out+=omp_in") || !strcmp(c, "omp_out=omp_out+omp_in") ||
      !strcmp(c, "omp_out=omp_in+omp_out"))
    return "+";
  if (!strcmp(c, "omp_out*=omp_in") || !strcmp(c, "omp_out=omp_out*omp_in") ||
      !strcmp(c, "omp_out=omp_in*omp_out"))
    return "*";
  if (strncmp(c, "omp_out=", 8)) return NULL;
  const char *r = c + 8;
  // omp_out = A CMP B ? X : Y, {A, B} = {omp_out, omp_in}, {X, Y} = {omp_out, omp_in}
  static const char *const cmps[] = {">=", "<=", ">", "<"};
  for (int k = 0; k < 4; k++) {
    for (int out_left = 0; out_left < 2; out_left++)
      for (int out_first = 0; out_first < 2; out_first++) {
        const char *A = out_left ? "omp_out" : "omp_in", *B = out_left ? "omp_in" : "omp_out";
        const char *X = out_first ? "omp_out" : "omp_in", *Y = out_first ? "omp_in" : "omp_out";
        if (strcmp(r, arena_printf(a, "%s%s%s?%s:%s", A, cmps[k], B, X, Y))) continue;
        bool greater = cmps[k][0] == '>'; // the condition: out > in (or out < in)
        if (!out_left) greater = !greater;
        return greater == (bool)out_first ? "max" : "min";
      }
  }
  const char *open = strchr(r, '(');
  if (!open || (strcmp(open + 1, "omp_out,omp_in)") && strcmp(open + 1, "omp_in,omp_out)")))
    return NULL;
  const char *name = arena_strndup(a, r, (size_t)(open - r));
  for (const char *q = name; *q; q++)
    if (!isalnum((unsigned char)*q) && *q != '_') return NULL;
  if (!*name || isdigit((unsigned char)*name)) return NULL;
  if (!strcmp(name, "fmax") || !strcmp(name, "fmaxf")) return "max";
  if (!strcmp(name, "fmin") || !strcmp(name, "fminf")) return "min";
  *fn = name;
  return name;
}

// Registers `#pragma omp declare reduction` node n as an operator; one adsoac does not read is
// registered with its error (u->unread), given only where a marked function uses it: the
// pragmas outside marked functions are copied as they are.
static void add_omp_reduction(Arena *a, const Src *src, Defs *d, TSNode n) {
  TSNode dir = ts_field(n, "directive"), arg = ts_field(n, "argument");
  if (ts_node_is_null(dir) || ts_node_is_null(arg) || strcmp(ts_text(a, src, dir), "#pragma"))
    return;
  uint32_t b = ts_node_start_byte(arg);
  const char *t = omp_squeeze(a, src->text + b, ts_node_end_byte(arg) - b), *p = t;
  if (strncmp(p, "ompdeclare", 10)) return;
  p += 10;
  const char *in = omp_paren(a, &p, "reduction");
  const char *c1 = in ? strchr(in, ':') : NULL, *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  if (!c2) return; // (declare simd, target, variant; or no reduction to name)
  Loc loc = ts_loc(src, n);
  UserOp *u = ARENA_NEW(a, UserOp);
  const char *id = arena_strndup(a, in, (size_t)(c1 - in));
  *u = (UserOp){.name = id, .call = id, .loc = loc, .neutral_loc = loc, .commutative = true};
  const char *fn, *op = omp_combiner(a, c2 + 1, &fn), *init = NULL;
  if (*p) {
    const char *i = omp_paren(a, &p, "initializer");
    if (i && !*p && !strncmp(i, "omp_priv=", 9)) init = i + 9;
    else if (op && fn)
      u->unread_hint = "write initializer(omp_priv = E), E the operator's neutral element",
      u->unread = arena_printf(a, "the initializer of '#pragma omp declare reduction(%s: ...)' "
                               "is not read yet (language.md 11)", id);
  }
  if (!op)
    u->unread_hint = "write the combiner as omp_out = fn(omp_out, omp_in) with T fn(T a, T b), "
                     "or omp_out += omp_in (*, fmax, fmin)",
    u->unread = arena_printf(a, "the combiner '%s' of '#pragma omp declare reduction(%s: ...)' "
                             "is not read yet (language.md 11)", c2 + 1, id);
  else if (!fn)
    u->builtin = op;
  else if (!u->unread) {
    u->def = fn_def(d->fndefs, fn);
    if (ts_node_is_null(u->def) || u->def.tree != n.tree)
      diag_error(loc, arena_printf(a, "define %s in this file, before the marked function", fn),
                 "the combiner of '#pragma omp declare reduction(%s: ...)' calls '%s', which "
                 "this file does not define", id, fn);
    u->call = fn;
    u->type = operator_type(a, src, d, u->def, arena_printf(a, "the combiner '%s' of "
                            "reduction '%s'", fn, id));
    u->neutral = init ? init : u->type->kind == TY_STRUCT ? arena_printf(a, "(%s){0}", u->type->name)
                                                          : "0";
  }
  UserOp *old;
  HASH_FIND_STR(d->ops, id, old);
  if (!old) {
    TABLE_ADD(a, d->ops, name, u);
  } else if (!old->unread &&
             (!old->builtin != !u->builtin || (u->builtin ? strcmp(old->builtin, u->builtin)
                                                          : !ts_node_eq(old->def, u->def)))) {
    old->unread_hint = "give the reductions different names";
    old->unread = arena_printf(a, "'%s' names two operators (%s:%u and %s:%u)", id,
                               old->loc.file, old->loc.line, loc.file, loc.line);
  }
}

// The variables a file-level declaration declares (not its functions, not a typedef's).
static void add_globals(Arena *a, const Src *src, TSNode decl, GlobalDef **table) {
  for (uint32_t i = 0; i < ts_node_named_child_count(decl); i++) {
    TSNode d = ts_node_named_child(decl, i), id = d;
    if (ts_is(d, "init_declarator")) id = ts_field(d, "declarator");
    TSNode top = id;
    while (ts_is(id, "array_declarator") || ts_is(id, "pointer_declarator") ||
           ts_is(id, "parenthesized_declarator"))
      id = ts_is(id, "parenthesized_declarator") ? ts_node_named_child(id, 0) : ts_field(id, "declarator");
    if (!ts_is(id, "identifier") || ts_is(top, "function_declarator")) continue;
    if (ts_node_eq(d, ts_field(decl, "type"))) continue;
    const char *name = ts_text(a, src, id);
    GlobalDef *g;
    HASH_FIND_STR(*table, name, g);
    if (g) continue;
    g = ARENA_NEW(a, GlobalDef);
    *g = (GlobalDef){.name = name, .decl = decl, .declarator = top};
    TABLE_ADD(a, *table, name, g);
  }
}

// The end of the first file-level declaration of function name before byte limit (a
// prototype, as a file whose main comes first declares its kernel), or 0.
static uint32_t first_prototype(Arena *a, const Src *src, TSNode root, const char *name,
                                uint32_t limit) {
  for (TSNode n = ts_node_named_child(root, 0);
       !ts_node_is_null(n) && ts_node_end_byte(n) <= limit; n = ts_node_next_named_sibling(n)) {
    if (!ts_is(n, "declaration")) continue;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      TSNode d = ts_node_named_child(n, i);
      while (ts_is(d, "pointer_declarator")) d = ts_field(d, "declarator");
      if (!ts_is(d, "function_declarator")) continue;
      TSNode id = ts_field(d, "declarator");
      if (ts_is(id, "identifier") && !strcmp(ts_text(a, src, id), name)) return ts_node_end_byte(n);
    }
  }
  return 0;
}

static Fn *lower_function(Arena *a, const Prog *prog, const Defs *defs, TSNode def,
                          const Pragma *pr) {
  const Src *src = &prog->text;
  TSNode d = ts_field(def, "declarator");
  int ptr = 0;
  while (ts_is(d, "pointer_declarator")) {
    ptr++;
    d = ts_field(d, "declarator");
  }
  if (!ts_is(d, "function_declarator"))
    diag_error(ts_loc(src, def), NULL, "expected a function definition");
  TSNode name = ts_field(d, "declarator");
  Lower L = {a, src};
  L.prog = prog;
  L.fndefs = defs->fndefs;
  L.ops = defs->ops;
  L.exts = defs->exts;
  L.globals = defs->globals;
  L.fn_start = ts_node_start_byte(def);
  L.types = &defs->types;
  L.macros = defs->macros;
  L.expr = lower_expr; // (see Lower)
  L.struct_expr = lower_struct_expr;
  L.block = lower_block;
  L.stmt = lower_stmt;
  L.guarded = lower_guarded;
  L.fn = fn_new(a, ts_text(a, src, name), ts_loc(src, name));
  L.b = (Builder){L.fn, L.fn->body, L.fn->loc};
  if (ptr) diag_error(ts_loc(src, def), "write results through pointer parameters instead",
                      "functions returning pointers are not supported");
  L.fn->ret = lower_type(&L, ts_field(def, "type"));
  for (uint32_t i = 0; i < ts_node_named_child_count(def); i++) {
    TSNode s = ts_node_named_child(def, i);
    L.fn->is_static |= ts_is(s, "storage_class_specifier") && !strcmp(node_text(&L, s), "static");
  }
  if (L.fn->ret->kind != TY_VOID && !ty_is_float(L.fn->ret) && !ty_is_int(L.fn->ret))
    diag_error(ts_loc(src, def), NULL, "unsupported return type");
  lower_params(&L, d, ts_field(def, "body"));
  bind_global_writes(&L, ts_field(def, "body"));
  L.alloc_blk = L.fn->body;
  // a return anywhere sets the hidden variable $ret, as in an inlined call (the statements
  // after an if that returned run in its else): the function returns once, at its end,
  // which the derivative rules take as the end of the primal
  int ri = var_push(&L, (Var){"$ret", L.fn->ret, VAR_SCALAR, 0, L.fn->loc});
  L.fn_body = ts_field(def, "body");
  lower_block(&L, L.fn_body);
  Val rv = L.vars[ri]->val;
  if (L.fn->ret->kind != TY_VOID && !rv)
    diag_error(ts_loc(src, def), "end every path of the function with a return",
               "function '%s' does not return a value on every path", L.fn->name);
  free_allocs(&L, 0);
  Node *ret = global_stores(&L);
  if (L.fn->ret->kind != TY_VOID || ret->u.ret.ng) { // (a void function ends without one)
    ret->u.ret.v = rv;
    b_push(&L.b, ret);
  }
  privatize(&L);
  set_activity(&L, pr);
  ir_verify(L.fn, "lower");
  return L.fn;
}

// The ranges the pass-through leaves out, kept in source order (operator pragmas and marked
// functions are found in separate walks; the pass-through copies the text between ranges).
static void add_drop(Arena *a, Prog *p, uint32_t s, uint32_t e) {
  uint32_t *ns = ARENA_ARRAY(a, uint32_t, p->ndrop + 1), *ne = ARENA_ARRAY(a, uint32_t, p->ndrop + 1);
  if (p->ndrop) {
    memcpy(ns, p->drop_start, sizeof(uint32_t) * (size_t)p->ndrop);
    memcpy(ne, p->drop_end, sizeof(uint32_t) * (size_t)p->ndrop);
  }
  int k = p->ndrop;
  for (; k > 0 && ns[k - 1] > s; k--) ns[k] = ns[k - 1], ne[k] = ne[k - 1];
  ns[k] = s;
  ne[k] = e;
  p->drop_start = ns;
  p->drop_end = ne;
  p->ndrop++;
}

typedef struct {
  Arena *a;
  const Src *src;
  Prog *p;
  int cap;
  bool in_fn;   // check_stray_pragmas: the walk is inside a function
  int fn_depth; // ... whose definition is at this depth (-1: none)
} Walk;

static bool collect_ident(void *ctx, TSNode n, int depth) {
  Walk *w = ctx;
  Prog *p = w->p;
  if (ts_is(n, "identifier") || ts_is(n, "type_identifier") || ts_is(n, "field_identifier")) {
    if (p->nidents == w->cap) {
      w->cap = w->cap ? w->cap * 2 : 256;
      const char **v = ARENA_ARRAY(w->a, const char *, w->cap);
      if (p->nidents) memcpy(v, p->idents, sizeof(char *) * (size_t)p->nidents);
      p->idents = v;
    }
    p->idents[p->nidents++] = ts_text(w->a, w->src, n);
    return false;
  }
  return true;
}

// Every identifier of the file, in p->idents (the names generated code must not take).
static void collect_idents(Arena *a, const Src *src, TSNode root, Prog *p) {
  Walk w = {a, src, p, 0};
  ts_walk(root, collect_ident, &w);
}

static void add_marked(Arena *a, Prog *p, Marked m) {
  Marked *v = ARENA_ARRAY(a, Marked, p->nmarked + 1);
  if (p->nmarked) memcpy(v, p->marked, sizeof(Marked) * (size_t)p->nmarked);
  v[p->nmarked++] = m;
  p->marked = v;
}

// adsoac pragmas inside functions that are not marked: a grad pragma there is misplaced; a
// loop pragma takes effect only where a marked function inlines the function: a warning.
static bool check_stray_pragma(void *ctx, TSNode n, int depth) {
  Walk *w = ctx;
  if (w->fn_depth >= depth) w->fn_depth = -1; // out of the function
  bool in_fn = w->in_fn || w->fn_depth >= 0;
  Pragma pr;
  if (ts_is(n, "preproc_call") && in_fn && pragma_parse(w->a, w->src, n, &pr)) {
    if (pr.kind == PR_GRAD || pr.kind == PR_OPERATOR || pr.kind == PR_DERIVATIVE)
      diag_error(pr.loc, "put it directly before a function definition, at file level",
                 "'#pragma adsoac %s' inside a function", pr.text);
    diag_warn(pr.loc, "mark the function with #pragma adsoac grad to translate it on its own",
              "'#pragma adsoac %s' in a function that is not marked: it applies only where "
              "a marked function calls this one (inlined)", pr.text);
  }
  if (ts_is(n, "function_definition") && w->fn_depth < 0) w->fn_depth = depth;
  return true;
}

static void check_stray_pragmas(Arena *a, const Src *src, TSNode n, bool in_fn) {
  Walk w = {a, src, NULL, 0, in_fn, -1};
  ts_walk(n, check_stray_pragma, &w);
}

// (a function of its own: a local of parse_program would live across pthread_cleanup_push's
// setjmp)
static void warn_unmarked(const Prog *p) {
  diag_warn((Loc){p->src.path, 0, 0}, "mark a function with #pragma adsoac grad",
            "no function is marked for differentiation");
}

// The types of the project headers the input includes (language.md §6): each header's text
// parsed on its own, all its definitions (its #if lines are not evaluated) collected before
// the input's own; a later definition of a name replaces an earlier one.
// The project headers' trees, alive while the front end runs (an error deletes them too).
typedef struct {
  TSTree **tree;
  int n;
} HeaderTrees;

static void release_headers(void *p) {
  HeaderTrees *h = p;
  for (int i = 0; i < h->n; i++) ts_tree_delete(h->tree[i]);
}

// The types of the project headers, and their functions (after the file's own: of two
// definitions of a name the file's is found).
static void collect_headers(Arena *a, TSParser *parser, Prog *p, HeaderTrees *ht, Defs *defs) {
  p->hsrc = ARENA_ARRAY(a, const Src *, p->ndeps + 1);
  p->htree = ARENA_ARRAY(a, const void *, p->ndeps + 1);
  for (int i = 0; i < p->ndeps; i++) {
    size_t len;
    int err;
    char *text = src_read(a, p->deps[i], &len, &err);
    if (!text) continue; // (the preprocessor has read it: a failure is diagnosed there)
    TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
    ht->tree[ht->n++] = tree;
    Src *hs = ARENA_NEW(a, Src);
    *hs = (Src){.path = p->deps[i], .text = text, .len = len, .header = true};
    p->hsrc[p->nh] = hs;
    p->htree[p->nh++] = tree;
    diag_add_source(hs);
    collect_types(a, hs, ts_tree_root_node(tree), &defs->types);
  }
}

static void add_fndefs(Arena *a, const Src *src, TSNode root, Defs *defs) {
  for (TSNode n = ts_node_named_child(root, 0); !ts_node_is_null(n);
       n = ts_node_next_named_sibling(n)) {
    if (src->header && (ts_is(n, "preproc_ifdef") || ts_is(n, "preproc_if"))) {
      add_fndefs(a, src, n, defs); // (an include guard; the rest is the preprocessor's)
      continue;
    }
    if (!ts_is(n, "function_definition")) continue;
    TSNode d = ts_field(n, "declarator");
    while (ts_is(d, "pointer_declarator")) d = ts_field(d, "declarator");
    TSNode name = ts_field(d, "declarator");
    if (!ts_is(d, "function_declarator") || !ts_is(name, "identifier")) continue;
    const char *s = ts_text(a, src, name);
    if (!ts_node_is_null(fn_def(defs->fndefs, s))) continue; // (the first of two is found)
    FnDef *f = ARENA_NEW(a, FnDef);
    *f = (FnDef){s, n};
    TABLE_ADD(a, defs->fndefs, name, f);
  }
}

Prog *parse_program(Arena *a, const Src *src, const MacroOptions *opt) {
  MacroTable *macros = macro_table_new(a, src, opt);
  diag_set_source(src);
  const char *active = macro_active_text(macros); // same offsets, inactive #if regions blanked
  TsOwned ts = {ts_parser_new(), NULL};
  Prog *p;
  pthread_cleanup_push(ts_release, &ts);
  TSParser *parser = ts.parser;
  if (!ts_parser_set_language(parser, tree_sitter_c()))
    diag_error((Loc){0}, NULL, "the tree-sitter C grammar does not match the runtime's ABI");
  TSTree *tree = ts.tree = ts_parser_parse_string(parser, NULL, active, (uint32_t)src->len);
  TSNode root = ts_tree_root_node(tree);
  ts_check_errors(src, root);
  ts_check_depth(src, root);
  p = ARENA_NEW(a, Prog);
  p->src = *src;
  p->text = *src;
  p->text.text = active;
  p->ndeps = macro_deps(macros, &p->deps);
  collect_idents(a, &p->text, root, p);
  Defs defs = {0};
  defs.macros = macros;
  HeaderTrees ht = {ARENA_ARRAY(a, TSTree *, p->ndeps + 1), 0};
  pthread_cleanup_push(release_headers, &ht);
  collect_headers(a, parser, p, &ht, &defs);
  collect_types(a, &p->text, root, &defs.types);
  for (TSNode n = ts_node_named_child(root, 0); !ts_node_is_null(n);
       n = ts_node_next_named_sibling(n))
    if (ts_is(n, "declaration")) add_globals(a, &p->text, n, &defs.globals);
  add_fndefs(a, &p->text, root, &defs);
  for (int i = 0; i < p->nh; i++)
    add_fndefs(a, p->hsrc[i], ts_tree_root_node((const TSTree *)p->htree[i]), &defs);
  defs.exts = collect_derivatives(a, parser, p, root, &defs.types);
  // declared operators first: marked functions may use them
  for (TSNode n = ts_node_named_child(root, 0); !ts_node_is_null(n);
       n = ts_node_next_named_sibling(n)) {
    Pragma pr;
    if (!ts_is(n, "preproc_call") || !pragma_parse(a, &p->text, n, &pr) || pr.kind != PR_OPERATOR)
      continue;
    TSNode def = ts_node_next_named_sibling(n);
    while (ts_is(def, "comment")) def = ts_node_next_named_sibling(def);
    if (!ts_is(def, "function_definition"))
      diag_error(pr.loc, "put '#pragma adsoac operator' directly before the operator's definition",
                 "'#pragma adsoac operator' is not followed by a function definition");
    add_operator(a, &p->text, &defs, &pr, def);
    add_drop(a, p, ts_node_start_byte(n), ts_node_end_byte(n));
  }
  for (TSNode n = ts_node_named_child(root, 0); !ts_node_is_null(n);
       n = ts_node_next_named_sibling(n))
    if (ts_is(n, "preproc_call")) add_omp_reduction(a, &p->text, &defs, n);
  FnDef *marked = NULL; // the marked functions by name
  for (TSNode n = ts_node_named_child(root, 0); !ts_node_is_null(n);
       n = ts_node_next_named_sibling(n)) {
    Pragma pr;
    if (!ts_is(n, "preproc_call") || !pragma_parse(a, &p->text, n, &pr)) continue;
    if (pr.kind == PR_OPERATOR) continue;
    if (pr.kind == PR_DERIVATIVE) { // (collect_derivatives)
      add_drop(a, p, ts_node_start_byte(n), ts_node_end_byte(n));
      continue;
    }
    if (pr.kind != PR_GRAD)
      diag_error(pr.loc, "loop pragmas belong inside a function, before a for loop",
                 "'#pragma adsoac %s' is not allowed at file level", pr.text);
    TSNode def = ts_node_next_named_sibling(n);
    while (ts_is(def, "comment")) def = ts_node_next_named_sibling(def);
    if (!ts_is(def, "function_definition"))
      diag_error(pr.loc, "put '#pragma adsoac grad' directly before a function definition",
                 "'#pragma adsoac grad' is not followed by a function definition");
    Marked m = {0};
    m.loc = pr.loc;
    m.primal = lower_function(a, p, &defs, def, &pr);
    m.start_byte = ts_node_start_byte(n);
    m.end_byte = ts_node_end_byte(def);
    m.proto_byte = first_prototype(a, &p->text, root, m.primal->name, m.start_byte);
    if (!ts_node_is_null(fn_def(marked, m.primal->name)))
      diag_error(m.primal->loc, NULL, "'%s' is marked twice", m.primal->name);
    FnDef *f = ARENA_NEW(a, FnDef);
    *f = (FnDef){m.primal->name, def};
    TABLE_ADD(a, marked, name, f);
    add_marked(a, p, m);
    add_drop(a, p, m.start_byte, m.end_byte);
    n = def;
  }
  for (TSNode n = ts_node_named_child(root, 0); !ts_node_is_null(n);
       n = ts_node_next_named_sibling(n)) {
    bool marked = false;
    for (int i = 0; i < p->nmarked; i++)
      marked |= ts_node_start_byte(n) >= p->marked[i].start_byte &&
                ts_node_end_byte(n) <= p->marked[i].end_byte;
    if (!marked) check_stray_pragmas(a, &p->text, n, false);
  }
  pthread_cleanup_pop(1); // release_headers
  p->nh = 0;             // (their trees are gone)
  pthread_cleanup_pop(1); // ts_release
  if (!p->nmarked) warn_unmarked(p);
  return p;
}
