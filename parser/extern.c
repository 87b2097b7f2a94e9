// parser/extern.c: functions whose body adsoac does not see, with derivatives the user
// declares (language.md §6):
//
//   #pragma adsoac derivative(f) vjp(f_vjp) jvp(f_jvp)      (one of vjp, jvp at least)
//
// f takes float, double and integer scalars and returns float or double; its derivatives
// follow the conventions of adsoac's own f_vjp and f_jvp (ExtFn, ir.h).  The signature comes
// from the first declaration found of f, f_vjp, f_jvp (in that order) in the file and the
// project headers it includes; the derivatives named must be declared there, and agree.
#include <pthread.h>
#include <string.h>

#include "lower.h"

// A function's declaration or definition.
typedef struct {
  bool found;
  Type *ret;
  bool ret_ptr; // (returns a pointer)
  int n;
  Type **t; // scalar types, or pointers (ty_ptr)
  const char **names; // NULL where unnamed
  Loc loc;
  uint32_t end; // byte offset of its end in the input (UINT32_MAX: in a header)
} Proto;

typedef struct {
  Arena *a;
  const Src *src;
  const TypeTable *types;
  const char *name;
  Proto *out;
  bool header;
} Find;

static Proto proto_of(Find *f, TSNode def, TSNode fd) {
  Lower L = {f->a, f->src};
  L.types = f->types;
  Proto p = {true};
  p.ret = lower_type(&L, ts_field(def, "type"));
  p.loc = ts_loc(f->src, fd);
  p.end = f->header ? UINT32_MAX : ts_node_end_byte(def);
  TSNode params = ts_field(fd, "parameters");
  uint32_t k = ts_node_named_child_count(params);
  p.t = ARENA_ARRAY(f->a, Type *, k + 1);
  p.names = ARENA_ARRAY(f->a, const char *, k + 1);
  for (uint32_t i = 0; i < k; i++) {
    TSNode pd = ts_node_named_child(params, i);
    if (!ts_is(pd, "parameter_declaration")) continue;
    if (k == 1 && !strcmp(ts_text(f->a, f->src, pd), "void")) break;
    bool is_const = false;
    for (uint32_t j = 0; j < ts_node_named_child_count(pd); j++) {
      TSNode q = ts_node_named_child(pd, j);
      if (ts_is(q, "type_qualifier") && !strcmp(ts_text(f->a, f->src, q), "const")) is_const = true;
    }
    Type *t = lower_type(&L, ts_field(pd, "type"));
    TSNode d = ts_field(pd, "declarator");
    int depth = 0;
    while (!ts_node_is_null(d) && !ts_is(d, "identifier")) {
      if (ts_is(d, "pointer_declarator") || ts_is(d, "abstract_pointer_declarator") ||
          ts_is(d, "array_declarator") || ts_is(d, "abstract_array_declarator"))
        depth++;
      d = ts_field(d, "declarator");
    }
    p.names[p.n] = ts_node_is_null(d) ? NULL : ts_text(f->a, f->src, d);
    p.t[p.n++] = depth == 0 ? t : depth == 1 ? ty_ptr(f->a, t, is_const) : &ty_void;
  }
  return p;
}

// The function declarator of name in a declaration or definition n, or a null node.
static TSNode declarator_of(Find *f, TSNode n, bool *ret_ptr) {
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
    TSNode d = ts_node_named_child(n, i);
    *ret_ptr = false;
    while (ts_is(d, "pointer_declarator")) {
      *ret_ptr = true;
      d = ts_field(d, "declarator");
    }
    if (ts_is(d, "function_declarator") && ts_is(ts_field(d, "declarator"), "identifier") &&
        !strcmp(ts_text(f->a, f->src, ts_field(d, "declarator")), f->name))
      return d;
  }
  return (TSNode){0};
}

static bool find_visit(void *ctx, TSNode n, int depth) {
  (void)depth;
  Find *f = ctx;
  if (f->out->found) return false;
  if (ts_is(n, "function_definition") || ts_is(n, "declaration")) {
    bool ret_ptr = false;
    TSNode fd = declarator_of(f, n, &ret_ptr);
    if (!ts_node_is_null(fd)) {
      *f->out = proto_of(f, n, fd);
      f->out->ret_ptr = ret_ptr;
    }
    return false; // (not into bodies)
  }
  return true;
}

typedef struct {
  Proto f, vjp, jvp;
} Protos;

typedef struct {
  const Pragma *pr;
  Protos p;
} Want;

static void find_in(Arena *a, const Src *src, TSNode root, const TypeTable *types, bool header,
                    Want *w, int nw) {
  for (int i = 0; i < nw; i++) {
    const char *names[3] = {w[i].pr->deriv, w[i].pr->vjp, w[i].pr->jvp};
    Proto *outs[3] = {&w[i].p.f, &w[i].p.vjp, &w[i].p.jvp};
    for (int k = 0; k < 3; k++) {
      if (!names[k] || outs[k]->found) continue;
      Find f = {a, src, types, names[k], outs[k], header};
      ts_walk(root, find_visit, &f);
    }
  }
}

static const char *type_name(Arena *a, const Type *t) {
  return ty_c_name(a, t);
}

// "double f_vjp(double x, double *x_bar, int n, double ret_bar)"
static const char *expected(Arena *a, const ExtFn *e, ExtMode m) {
  Buf b = {.arena = a};
  const char *r = type_name(a, e->ret);
  buf_printf(&b, "%s %s(", r, m == EXT_CALL ? e->name : m == EXT_VJP ? e->vjp : e->jvp);
  for (int k = 0; k < e->nparams; k++) {
    const char *t = type_name(a, e->ptypes[k]), *x = e->pnames[k];
    buf_printf(&b, "%s%s %s", k ? ", " : "", t, x);
    if (m == EXT_VJP && ext_active(e, k)) buf_printf(&b, ", %s *%s_bar", t, x);
    if (m == EXT_JVP && ext_active(e, k)) buf_printf(&b, ", %s %s_dot", t, x);
  }
  if (m == EXT_VJP) buf_printf(&b, "%s%s ret_bar", e->nparams ? ", " : "", r);
  if (m == EXT_JVP) buf_printf(&b, "%s%s *ret_dot", e->nparams ? ", " : "", r);
  buf_puts(&b, ")");
  const char *s = arena_strdup(a, b.data);
  buf_free(&b);
  return s;
}

static bool scalar_ok(const Type *t) {
  return ty_is_float(t) || t->kind == TY_INT;
}

static const char *const hint_scalars =
    "a function with declared derivatives takes float, double and integer scalars and returns "
    "float or double (pointers and structs: define the function in this file instead)";

// The signature from f's own declaration.
static bool from_f(Arena *a, const Proto *p, ExtFn *e) {
  if (!ty_is_float(p->ret) || p->ret_ptr)
    diag_error(p->loc, hint_scalars, "'%s' returns '%s'", e->name, type_name(a, p->ret));
  e->ret = p->ret;
  e->nparams = p->n;
  e->ptypes = ARENA_ARRAY(a, Type *, p->n + 1);
  e->pnames = ARENA_ARRAY(a, const char *, p->n + 1);
  for (int k = 0; k < p->n; k++) {
    if (!scalar_ok(p->t[k]))
      diag_error(p->loc, hint_scalars, "parameter %d of '%s' is of type '%s'", k + 1, e->name,
                 type_name(a, p->t[k]));
    e->ptypes[k] = p->t[k];
    e->pnames[k] = p->names[k] ? p->names[k] : arena_printf(a, "a%d", k + 1);
  }
  return true;
}

// The signature read off a declared vjp (m == EXT_VJP) or jvp: each float or double parameter
// followed by its adjoint's pointer or its tangent, integers alone, the seed or the result's
// tangent's pointer last.  False where the declaration does not have that form.
static bool from_deriv(Arena *a, const Proto *p, ExtFn *e, ExtMode m) {
  if (p->n < 1) return false;
  Type *last = p->t[p->n - 1];
  Type *r = m == EXT_VJP ? last : last->kind == TY_PTR ? last->elem : NULL;
  if (!r || !ty_is_float(r) || (m == EXT_JVP && p->ret != r)) return false;
  e->ret = r;
  e->ptypes = ARENA_ARRAY(a, Type *, p->n);
  e->pnames = ARENA_ARRAY(a, const char *, p->n);
  e->nparams = 0;
  for (int k = 0; k < p->n - 1; k++) {
    Type *t = p->t[k];
    if (!scalar_ok(t)) return false;
    int n = e->nparams++;
    e->ptypes[n] = t;
    e->pnames[n] = p->names[k] ? p->names[k] : arena_printf(a, "a%d", n + 1);
    if (!ty_is_float(t)) continue;
    if (k + 1 >= p->n - 1) return false;
    Type *d = p->t[++k];
    if (m == EXT_VJP ? d->kind != TY_PTR || d->elem != t : d != t) return false;
  }
  return true;
}

// Does the declaration p of e's vjp (or jvp) have the signature e's calls need?
static bool agrees(const Proto *p, const ExtFn *e, ExtMode m) {
  if (p->ret_ptr) return false;
  if (m == EXT_JVP ? p->ret != e->ret : p->ret != e->ret && p->ret->kind != TY_VOID) return false;
  int k = 0;
  for (int i = 0; i < e->nparams; i++) {
    if (k >= p->n || p->t[k++] != e->ptypes[i]) return false;
    if (!ext_active(e, i)) continue;
    if (k >= p->n) return false;
    Type *d = p->t[k++];
    if (m == EXT_VJP ? d->kind != TY_PTR || d->elem != e->ptypes[i] : d != e->ptypes[i]) return false;
  }
  if (k != p->n - 1) return false;
  Type *last = p->t[k];
  return m == EXT_VJP ? last == e->ret : last->kind == TY_PTR && last->elem == e->ret;
}

static ExtFn *resolve(Arena *a, const Pragma *pr, const Protos *ps) {
  ExtFn *e = ARENA_NEW(a, ExtFn);
  e->name = pr->deriv;
  e->vjp = pr->vjp;
  e->jvp = pr->jvp;
  e->loc = pr->loc;
  const char *dhint = "declare it in this file or a header it includes (#include \"...\"), "
                      "before the functions that call the function it differentiates";
  if (pr->vjp && !ps->vjp.found)
    diag_error(pr->vjp_loc, dhint, "'%s' is not declared", pr->vjp);
  if (pr->jvp && !ps->jvp.found)
    diag_error(pr->jvp_loc, dhint, "'%s' is not declared", pr->jvp);
  if (ps->f.found) {
    from_f(a, &ps->f, e);
  } else if (!(ps->vjp.found && from_deriv(a, &ps->vjp, e, EXT_VJP)) &&
             !(ps->jvp.found && from_deriv(a, &ps->jvp, e, EXT_JVP))) {
    const Proto *p = ps->vjp.found ? &ps->vjp : &ps->jvp;
    diag_error(p->loc, arena_printf(a, "declare '%s' (R %s(P1 a1, ...)), or give %s adsoac's "
                                    "form: each float or double parameter followed by %s, "
                                    "integers alone, then %s", pr->deriv, pr->deriv,
                                    ps->vjp.found ? pr->vjp : pr->jvp,
                                    ps->vjp.found ? "its adjoint's pointer" : "its tangent",
                                    ps->vjp.found ? "the seed (R ret_bar)" : "R *ret_dot"),
               "adsoac cannot tell the parameters of '%s' from the declaration of '%s'", pr->deriv,
               ps->vjp.found ? pr->vjp : pr->jvp);
  }
  const Proto *dp[2] = {&ps->vjp, &ps->jvp};
  ExtMode dm[2] = {EXT_VJP, EXT_JVP};
  for (int i = 0; i < 2; i++)
    if (dp[i]->found && !agrees(dp[i], e, dm[i]))
      diag_error(dp[i]->loc, arena_printf(a, "declare it %s", expected(a, e, dm[i])),
                 "'%s' does not have the signature of the %s of '%s'",
                 dm[i] == EXT_VJP ? e->vjp : e->jvp, dm[i] == EXT_VJP ? "vjp" : "jvp", e->name);
  e->decl_end = 0;
  for (int i = 0; i < 2; i++)
    if (dp[i]->found && dp[i]->end != UINT32_MAX && dp[i]->end > e->decl_end)
      e->decl_end = dp[i]->end;
  return e;
}

static bool collect_visit(void *ctx, TSNode n, int depth) {
  (void)depth;
  void **c = ctx;
  Arena *a = c[0];
  const Src *src = c[1];
  Want **w = c[2];
  int *nw = c[3], *cap = c[4];
  if (ts_is(n, "function_definition")) return false;
  Pragma pr;
  if (ts_is(n, "preproc_call") && pragma_parse(a, src, n, &pr) && pr.kind == PR_DERIVATIVE) {
    if (*nw == *cap) {
      *cap = *cap ? 2 * *cap : 8;
      Want *v = ARENA_ARRAY(a, Want, *cap);
      if (*nw) memcpy(v, *w, sizeof(Want) * (size_t)*nw);
      *w = v;
    }
    Pragma *p = ARENA_NEW(a, Pragma);
    *p = pr;
    (*w)[(*nw)++] = (Want){p};
  }
  return true;
}

ExtDef *collect_derivatives(Arena *a, TSParser *parser, const Prog *p, TSNode root,
                            const TypeTable *types) {
  Want *w = NULL;
  int nw = 0, cap = 0;
  void *ctx[5] = {a, (void *)&p->text, &w, &nw, &cap};
  ts_walk(root, collect_visit, ctx);
  if (!nw) return NULL;
  find_in(a, &p->text, root, types, false, w, nw);
  for (int i = 0; i < p->ndeps; i++) {
    size_t len;
    int err;
    char *text = src_read(a, p->deps[i], &len, &err);
    if (!text) continue; // (the preprocessor has read it: a failure is diagnosed there)
    TsOwned h = {NULL, ts_parser_parse_string(parser, NULL, text, (uint32_t)len)};
    pthread_cleanup_push(ts_release, &h);
    Src hs = {p->deps[i], text, len};
    find_in(a, &hs, ts_tree_root_node(h.tree), types, true, w, nw);
    pthread_cleanup_pop(1);
  }
  ExtDef *table = NULL;
  for (int i = 0; i < nw; i++) {
    ExtDef *old;
    HASH_FIND_STR(table, w[i].pr->deriv, old);
    if (old)
      diag_error(w[i].pr->deriv_loc, NULL, "the derivatives of '%s' are declared twice",
                 w[i].pr->deriv);
    ExtDef *d = ARENA_NEW(a, ExtDef);
    d->name = w[i].pr->deriv;
    d->fn = resolve(a, w[i].pr, &w[i].p);
    TABLE_ADD(a, table, name, d);
  }
  return table;
}
