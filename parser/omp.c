// parser/omp.c: OpenMP directives in a marked function read as adsoac's annotations
// (language.md 11).  A work-sharing or simd loop (`omp parallel for`, `omp for`, `... simd`,
// `omp simd`, `omp loop`) is a map; its reduction clauses are reduce clauses, `private` and
// `firstprivate` variables are the iteration's own, `collapse(n)` makes the next n - 1
// perfectly nested loops maps too.  The rest of the clauses change no meaning.
#include <ctype.h>
#include <string.h>

#include "lower.h"
#include "macro.h"

typedef struct {
  const char *s;
  size_t pos, len;
} OmpLex;

static void omp_blank(OmpLex *x) {
  while (x->pos < x->len && (isspace((unsigned char)x->s[x->pos]) || x->s[x->pos] == '\\'))
    x->pos++;
}

// The next word (letters, digits, _), or NULL.
static const char *omp_word(Arena *a, OmpLex *x) {
  omp_blank(x);
  size_t b = x->pos;
  while (x->pos < x->len && (isalnum((unsigned char)x->s[x->pos]) || x->s[x->pos] == '_'))
    x->pos++;
  return x->pos > b ? arena_strndup(a, x->s + b, x->pos - b) : NULL;
}

// "(...)" after a clause's name: its text without the parentheses (NULL: none).
static const char *omp_args(Arena *a, OmpLex *x) {
  omp_blank(x);
  if (x->pos >= x->len || x->s[x->pos] != '(') return NULL;
  size_t b = ++x->pos;
  int depth = 1;
  while (x->pos < x->len && depth) {
    if (x->s[x->pos] == '(') depth++;
    if (x->s[x->pos] == ')') depth--;
    x->pos++;
  }
  return arena_strndup(a, x->s + b, x->pos - b - (depth ? 0 : 1));
}

static bool in_list(const char *w, const char *const *list) {
  for (int k = 0; list[k]; k++)
    if (!strcmp(w, list[k])) return true;
  return false;
}

// The names of a clause's list "a, b, c" (spaces trimmed).
static int omp_names(Arena *a, const char *args, const char ***out) {
  int n = 0, cap = 1;
  for (const char *p = args; *p; p++) cap += *p == ',';
  *out = ARENA_ARRAY(a, const char *, cap);
  for (const char *p = args; *p;) {
    while (*p && (isspace((unsigned char)*p) || *p == ',')) p++;
    const char *b = p;
    while (*p && *p != ',') p++;
    const char *e = p;
    while (e > b && isspace((unsigned char)e[-1])) e--;
    if (e > b) (*out)[n++] = arena_strndup(a, b, (size_t)(e - b));
  }
  return n;
}

OmpRead omp_read(Lower *L, Loc loc, const char *text, Pragma *pr) {
  OmpLex x = {text, 0, strcspn(text, "\r\n")};
  if (x.len && x.s[x.len - 1] == '\\') x.len = strlen(text); // (continuation lines: all of it)
  const char *w = omp_word(L->a, &x);
  if (!w || strcmp(w, "omp")) return OMP_NOT;
  // the directive's name: its words up to the first clause
  static const char *const dir_words[] = {"parallel", "for", "simd", "loop", "target", "teams",
                                          "distribute", "taskloop", "task", "sections",
                                          "section", "ordered", "single", "master", "masked",
                                          "critical", "atomic", "barrier", "flush", "scan",
                                          "taskwait", "taskgroup", "declare", "threadprivate",
                                          "cancel", "workshare", NULL};
  char name[128] = "";
  size_t save = x.pos;
  while ((w = omp_word(L->a, &x)) && in_list(w, dir_words)) {
    if (strlen(name) + strlen(w) + 2 < sizeof name) {
      if (*name) strcat(name, " ");
      strcat(name, w);
    }
    save = x.pos;
  }
  x.pos = save;
  static const char *const loops[] = {"parallel for", "for", "parallel for simd", "for simd",
                                      "simd", "loop", "parallel loop", NULL};
  static const char *const refused[] = {"task", "taskloop", "taskloop simd", "sections",
                                        "parallel sections", "section", "ordered", NULL};
  if (in_list(name, refused))
    diag_error(loc, !strcmp(name, "ordered")
                        ? "write the loop without ordered: a scan(...) pragma, or a sequential loop"
                        : "write the work as loops: #pragma omp parallel for, or adsoac's map",
               "'#pragma omp %s' has no reading as an annotation (language.md 11)", name);
  if (!strcmp(name, "scan")) return OMP_SCAN;
  if (!strcmp(name, "atomic")) return OMP_ATOMIC;
  static const char *const once[] = {"single", "master", "masked", "critical", NULL};
  static const char *const skip[] = {"barrier", "flush", "taskwait", NULL};
  if (in_list(name, once)) return OMP_ONCE;
  if (in_list(name, skip)) return OMP_SKIP;
  bool region = !strcmp(name, "parallel");
  if (!in_list(name, loops) && !region) return OMP_OTHER;

  // the clauses
  Buf adsoac = {.arena = L->a};
  const char *priv[64];
  bool first[64], last[64];
  int npriv = 0, collapse = 1;
  Buf dropped = {.arena = L->a};
  static const char *const kept[] = {"schedule", "num_threads", "if", "proc_bind", NULL};
  const char *hints[8];
  int nhints = 0;
  for (;;) {
    omp_blank(&x);
    if (x.pos < x.len && x.s[x.pos] == ',') { // (clauses may be separated by commas)
      x.pos++;
      continue;
    }
    const char *c = omp_word(L->a, &x);
    if (!c) break;
    const char *args = omp_args(L->a, &x);
    if (!strcmp(c, "reduction")) {
      const char *colon = args ? strrchr(args, ':') : NULL;
      if (!colon)
        diag_error(loc, "write reduction(op: v, ...)", "malformed reduction clause");
      const char *op = arena_strndup(L->a, args, (size_t)(colon - args));
      const char *comma = strchr(op, ','), *kind = "reduce";
      if (comma) { // a modifier: reduction(inscan, +: v) is a scan; task, default: refused
        const char *mod = arena_strndup(L->a, op, (size_t)(comma - op));
        while (isspace((unsigned char)*mod)) mod++;
        size_t ml = strlen(mod);
        while (ml && isspace((unsigned char)mod[ml - 1])) ml--;
        if (ml == 6 && !strncmp(mod, "inscan", 6))
          kind = "scan"; // (#pragma omp scan in the body: reads after it see the inclusive
                         // prefix, or before it the exclusive one, as adsoac's scan says)
        else
          diag_error(loc, "write reduction(op: v, ...) without the modifier",
                     "'reduction(%s)' is not read yet (language.md 11)", args);
        op = comma + 1;
      }
      while (isspace((unsigned char)*op)) op++;
      size_t ol = strlen(op);
      while (ol && isspace((unsigned char)op[ol - 1])) ol--;
      op = arena_strndup(L->a, op, ol);
      if (!strcmp(op, "-")) op = "+"; // (OpenMP's - combines with +)
      UserOp *u; // (an omp declare reduction, or an adsoac operator: parse.c)
      HASH_FIND_STR(L->ops, op, u);
      if (u && u->unread) diag_error(u->loc, u->unread_hint, "%s", u->unread);
      if (strcmp(op, "+") && strcmp(op, "*") && strcmp(op, "min") && strcmp(op, "max") && !u)
        diag_error(loc, "use reduction(+ - * min max: ...), or declare the operator (#pragma omp "
                   "declare reduction before the function)", "reduction operator '%s' is not "
                   "read yet (language.md 11)", op);
      const char *list = colon + 1;
      while (isspace((unsigned char)*list)) list++;
      buf_printf(&adsoac, "%s%s(%s: %s)", adsoac.data ? " " : "", kind, op, list);
    } else if (!strcmp(c, "private") || !strcmp(c, "firstprivate") || !strcmp(c, "lastprivate")) {
      if (c[0] == 'l' && args && strchr(args, ':'))
        diag_error(loc, "find the last iteration that assigns it with reduction(max: k), and "
                   "assign the variable after the loop", "'lastprivate(%s)' is not read yet "
                   "(language.md 11)", args);
      const char **names;
      int n = args ? omp_names(L->a, args, &names) : 0;
      for (int k = 0; k < n; k++) {
        int j = 0; // (a variable both firstprivate and lastprivate: one entry)
        while (j < npriv && strcmp(priv[j], names[k])) j++;
        if (j == 64)
          diag_error(loc, NULL, "more than 64 private variables on one loop");
        if (j == npriv) priv[npriv++] = names[k], first[j] = last[j] = false;
        first[j] |= c[0] == 'f';
        last[j] |= c[0] == 'l';
      }
    } else if (!strcmp(c, "linear")) {
      diag_error(loc, "compute the variable from the loop index (j = j0 + i * step)",
                 "'linear(%s)' is not read yet (language.md 11)", args ? args : "");
    } else if (!strcmp(c, "collapse")) {
      char *end;
      long v = args ? strtol(args, &end, 10) : 0;
      if (!args || *end || v < 1 || v > 8)
        diag_error(loc, "write collapse(n), n a small positive integer", "bad collapse clause");
      collapse = (int)v;
    } else if (in_list(c, kept) && args && !region) { // (hints: lower_loop.c loop_hints)
      if (nhints < 8) hints[nhints++] = arena_printf(L->a, "%s(%s)", c, args);
    } else if (!strcmp(c, "shared") || !strcmp(c, "default")) {
      // (what is shared is the reading already)
    } else { // nowait, simdlen, safelen, aligned, order, ...; a region's schedule, ...
      buf_printf(&dropped, "%s%s%s%s%s", dropped.data ? ", " : "", c, args ? "(" : "",
                 args ? args : "", args ? ")" : "");
    }
  }
  if (dropped.data)
    diag_warn(loc, "adsoac chooses the schedule and the threads of the loops it writes; "
              "schedule, num_threads, if and proc_bind of a loop are kept in f",
              "'%s' of '#pragma omp %s' changes no meaning: the generated functions leave it "
              "out", dropped.data, name);
  const char *t = adsoac.data ? adsoac.data : "map",
             *full = arena_printf(L->a, "adsoac %s", t);
  Src s = {.path = loc.file, .text = full, .len = strlen(full), .at = loc};
  if (!pragma_parse_text(L->a, &s, 0, (uint32_t)s.len, loc, pr)) UNREACHABLE();
  pr->text = arena_printf(L->a, "%s, from #pragma omp %s", t, name);
  pr->loc = loc;
  pr->omp = true;
  pr->collapse = collapse;
  pr->npriv = npriv;
  pr->omp_bound = !strcmp(name, "for") || !strcmp(name, "for simd") || !strcmp(name, "loop");
  pr->omp_hints = ARENA_ARRAY(L->a, const char *, nhints + 1);
  memcpy(pr->omp_hints, hints, sizeof *hints * (size_t)nhints);
  pr->nomp_hints = nhints;
  pr->priv = ARENA_ARRAY(L->a, const char *, npriv + 1);
  pr->firstpriv = ARENA_ARRAY(L->a, bool, npriv + 1);
  pr->lastpriv = ARENA_ARRAY(L->a, bool, npriv + 1);
  memcpy(pr->priv, priv, sizeof *priv * (size_t)npriv);
  memcpy(pr->firstpriv, first, sizeof *first * (size_t)npriv);
  memcpy(pr->lastpriv, last, sizeof *last * (size_t)npriv);
  return region ? OMP_REGION : OMP_LOOP;
}

// ---- omp atomic in a loop read as a map: hist and reduce clauses ----

static TSNode next_stmt(TSNode n) {
  n = ts_node_next_named_sibling(n);
  while (ts_is(n, "comment")) n = ts_node_next_named_sibling(n);
  return n;
}

static TSNode unparen(TSNode e) {
  while (ts_is(e, "parenthesized_expression")) e = ts_node_named_child(e, 0);
  return e;
}

// The operator of the update `t op= e`, `t = t op e`, `t++` (t's text: target): "+" or "*";
// NULL for another form.
static const char *atomic_op(Lower *L, TSNode e, const char *target) {
  if (ts_is(e, "update_expression")) return "+";
  if (!ts_is(e, "assignment_expression")) return NULL;
  const char *op = node_text(L, ts_field(e, "operator"));
  if (!strcmp(op, "+=") || !strcmp(op, "-=")) return "+";
  if (!strcmp(op, "*=")) return "*";
  TSNode r = unparen(ts_field(e, "right"));
  if (strcmp(op, "=") || !ts_is(r, "binary_expression")) return NULL;
  const char *b = node_text(L, ts_field(r, "operator"));
  if (strcmp(node_text(L, unparen(ts_field(r, "left"))), target)) return NULL;
  return !strcmp(b, "+") || !strcmp(b, "-") ? "+" : !strcmp(b, "*") ? "*" : NULL;
}

// The declared length of array name, as C text: its declarator's first extent (double
// h[NBINS], a parameter or a local), or calloc's count (calloc(nb, sizeof *h)); NULL: unknown.
typedef struct {
  Lower *L;
  const char *name, *len;
} Extent;

static bool extent_of(void *ctx, TSNode n, int depth) {
  (void)depth;
  Extent *x = ctx;
  if (x->len) return false;
  TSNode d = n, init = {0};
  if (ts_is(n, "init_declarator")) d = ts_field(n, "declarator"), init = ts_field(n, "value");
  if (ts_is(d, "array_declarator") && ts_is(ts_field(d, "declarator"), "identifier") &&
      !strcmp(node_text(x->L, ts_field(d, "declarator")), x->name) &&
      !ts_node_is_null(ts_field(d, "size")))
    x->len = node_text(x->L, ts_field(d, "size"));
  while (ts_is(d, "pointer_declarator")) d = ts_field(d, "declarator");
  init = unparen(init);
  if (ts_is(init, "cast_expression")) init = unparen(ts_field(init, "value"));
  if (!x->len && ts_is(d, "identifier") && !strcmp(node_text(x->L, d), x->name) &&
      ts_is(init, "call_expression") &&
      !strcmp(node_text(x->L, ts_field(init, "function")), "calloc") &&
      ts_node_named_child_count(ts_field(init, "arguments")) == 2)
    x->len = node_text(x->L, ts_node_named_child(ts_field(init, "arguments"), 0));
  return !x->len;
}

typedef struct {
  Lower *L;
  Clause *cs;
  int n, cap;
  const Pragma *pr;
  TSNode body; // the loop's
} Atomics;

static void add_clause(Atomics *w, ClauseKind kind, const char *op, const char *var, Loc loc,
                       const char *len) {
  for (int k = 0; k < w->n; k++)
    if (!strcmp(w->cs[k].vars[0], var)) {
      if (strcmp(w->cs[k].op, op))
        diag_error(loc, "update it with one operator in the loop", "'%s' is updated atomically "
                   "with %s and with %s in one loop", var, w->cs[k].op, op);
      return;
    }
  if (w->n == w->cap) diag_error(loc, NULL, "too many atomic targets in one loop");
  Arena *a = w->L->a;
  Clause *c = &w->cs[w->n++];
  *c = (Clause){.kind = kind, .loc = loc, .op_loc = loc, .op = op, .nvars = 1};
  c->vars = ARENA_ARRAY(a, const char *, 1), c->vars[0] = var;
  c->var_locs = ARENA_ARRAY(a, Loc, 1), c->var_locs[0] = loc;
  c->lo_text = ARENA_ARRAY(a, const char *, 1), c->lo_text[0] = "0";
  c->len_text = ARENA_ARRAY(a, const char *, 1), c->len_text[0] = len;
  c->lo_loc = ARENA_ARRAY(a, Loc, 1), c->lo_loc[0] = loc;
  c->len_loc = ARENA_ARRAY(a, Loc, 1), c->len_loc[0] = loc;
}

// OpenMP 5.1's `atomic compare` min/max forms: `if (e > x) x = e;` (braces or not, either side
// of the comparison, < for min) and `x = e > x ? e : x;` (and its variants): "max" or "min",
// *target the updated place x; NULL for another form (the compare-and-swap x = x == e ? d : x).
static const char *compare_op(Lower *L, TSNode st, TSNode *target) {
  TSNode cond, val, alt = {0};
  if (ts_is(st, "if_statement")) {
    if (!ts_node_is_null(ts_field(st, "alternative"))) return NULL;
    TSNode c = ts_field(st, "consequence");
    if (ts_is(c, "compound_statement")) {
      if (ts_node_named_child_count(c) != 1) return NULL;
      c = ts_node_named_child(c, 0);
    }
    TSNode a = unparen(ts_node_named_child(c, 0));
    if (!ts_is(c, "expression_statement") || !ts_is(a, "assignment_expression") ||
        strcmp(node_text(L, ts_field(a, "operator")), "="))
      return NULL;
    cond = unparen(ts_field(st, "condition"));
    *target = unparen(ts_field(a, "left"));
    val = unparen(ts_field(a, "right"));
  } else {
    TSNode a = unparen(ts_node_named_child(st, 0)), r = unparen(ts_field(a, "right"));
    if (!ts_is(st, "expression_statement") || !ts_is(a, "assignment_expression") ||
        strcmp(node_text(L, ts_field(a, "operator")), "=") || !ts_is(r, "conditional_expression"))
      return NULL;
    *target = unparen(ts_field(a, "left"));
    cond = unparen(ts_field(r, "condition"));
    val = unparen(ts_field(r, "consequence"));
    alt = unparen(ts_field(r, "alternative"));
  }
  if (!ts_is(cond, "binary_expression")) return NULL;
  const char *x = node_text(L, *target), *c = node_text(L, ts_field(cond, "operator"));
  const char *l = node_text(L, unparen(ts_field(cond, "left"))),
             *r = node_text(L, unparen(ts_field(cond, "right")));
  bool gt = !strcmp(c, ">") || !strcmp(c, ">="), lt = !strcmp(c, "<") || !strcmp(c, "<=");
  if (!gt && !lt) return NULL;
  // the condition as "e > x" (max when the assignment then takes e) or "e < x"
  bool e_greater;
  const char *e;
  if (!strcmp(r, x)) e = l, e_greater = gt;
  else if (!strcmp(l, x)) e = r, e_greater = lt;
  else return NULL;
  const char *v = node_text(L, val);
  if (ts_node_is_null(alt)) { // if (...) x = e;
    if (strcmp(v, e)) return NULL;
    return e_greater ? "max" : "min";
  }
  const char *o = node_text(L, alt); // x = cond ? v : o, {v, o} = {e, x}
  if (!strcmp(v, e) && !strcmp(o, x)) return e_greater ? "max" : "min";
  if (!strcmp(v, x) && !strcmp(o, e)) return e_greater ? "min" : "max";
  return NULL;
}

// An omp atomic update h[k] op= e of an array whose length is not known here: its section is
// the range of k over the loop's iterations, computed by a loop before it (language.md 11:
// "the section being every index the loop updates") where k can be evaluated there as in
// the loop: the update is a statement of the body itself (every iteration runs it once, the
// body has no break or continue), and k calls no function and names nothing the body
// declares or assigns (nor an element of an array it writes).
typedef struct {
  Lower *L;
  const char **names;
  int n, cap;
  bool bad; // k: a call, an assignment
} Names;

static void names_add(Names *x, const char *s) {
  if (x->n < x->cap) x->names[x->n++] = s;
  else x->bad = true;
}

static bool body_names(void *ctx, TSNode n, int depth) { // declared, assigned, written
  (void)depth;
  Names *x = ctx;
  TSNode t = {0};
  if (ts_is(n, "assignment_expression")) t = ts_field(n, "left");
  if (ts_is(n, "update_expression")) t = ts_field(n, "argument");
  if (ts_is(n, "pointer_expression") && !strcmp(node_text(x->L, ts_field(n, "operator")), "&"))
    t = ts_field(n, "argument");
  if (ts_is(n, "init_declarator")) t = ts_field(n, "declarator");
  if (ts_is(n, "declaration")) // (its init_declarators are visited on their own)
    for (uint32_t i = 1; i < ts_node_named_child_count(n); i++) {
      TSNode d = ts_node_named_child(n, i);
      while (ts_is(d, "pointer_declarator") || ts_is(d, "array_declarator"))
        d = ts_field(d, "declarator");
      if (ts_is(d, "identifier")) names_add(x, node_text(x->L, d));
    }
  for (;;) { // (the array of an element, the name of a declarator)
    t = unparen(t);
    if (ts_is(t, "subscript_expression") || ts_is(t, "field_expression")) t = ts_field(t, "argument");
    else if (ts_is(t, "pointer_expression") || ts_is(t, "pointer_declarator") ||
             ts_is(t, "array_declarator") || ts_is(t, "init_declarator"))
      t = ts_is(t, "pointer_expression") ? ts_field(t, "argument") : ts_field(t, "declarator");
    else break;
  }
  if (ts_is(t, "identifier")) names_add(x, node_text(x->L, t));
  return true;
}

static bool index_names(void *ctx, TSNode n, int depth) { // what k reads
  (void)depth;
  Names *x = ctx;
  if (ts_is(n, "call_expression") || ts_is(n, "assignment_expression") ||
      ts_is(n, "update_expression") || ts_is(n, "comma_expression"))
    x->bad = true;
  if (ts_is(n, "identifier")) names_add(x, node_text(x->L, n));
  return !x->bad;
}

// The declaration `T name = e;` among the body's statements before stop, or a null node.
static TSNode local_decl(Lower *L, TSNode body, TSNode stop, const char *name) {
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode d = ts_node_named_child(body, i);
    if (ts_node_eq(d, stop)) break;
    if (!ts_is(d, "declaration") || ts_node_named_child_count(d) != 2) continue;
    TSNode id = ts_field(d, "declarator");
    if (ts_is(id, "init_declarator") && ts_is(ts_field(id, "declarator"), "identifier") &&
        !strcmp(node_text(L, ts_field(id, "declarator")), name))
      return d;
  }
  return (TSNode){0};
}

// Can expression e be evaluated before the loop, as each iteration would at pragma?  Adds
// the body's locals it reads (declared before pragma as `T b = e2;` and never assigned
// again, e2 such an expression too) to decls, each once, in the body's order.
static bool probe_expr(Lower *L, const Atomics *w, const Names *body, TSNode pragma, TSNode e,
                       TSNode *decls, int *nd, int depth) {
  Names idx = {L, ARENA_ARRAY(L->a, const char *, 64), 0, 64, false};
  ts_walk(e, index_names, &idx);
  if (idx.bad || depth > 8) return false;
  for (int i = 0; i < idx.n; i++) {
    bool fl;
    if (L->macros && macro_defined(L->macros, idx.names[i], use_byte(L, e), &fl)) return false;
    int count = 0;
    for (int j = 0; j < body->n; j++) count += !strcmp(idx.names[i], body->names[j]);
    if (!count) continue;
    TSNode d = local_decl(L, w->body, pragma, idx.names[i]);
    if (count > 1 || ts_node_is_null(d)) return false;
    bool have = false;
    for (int k = 0; k < *nd && !have; k++) have = ts_node_eq(decls[k], d);
    if (have) continue;
    if (!probe_expr(L, w, body, pragma, ts_field(ts_field(d, "declarator"), "value"), decls,
                    nd, depth + 1) || *nd == 16)
      return false;
    int at = *nd; // (in the body's order)
    while (at > 0 && ts_node_start_byte(decls[at - 1]) > ts_node_start_byte(d)) at--;
    memmove(decls + at + 1, decls + at, sizeof *decls * (size_t)(*nd - at));
    decls[at] = d, (*nd)++;
  }
  return true;
}

static bool probe_ok(Lower *L, const Atomics *w, TSNode pragma, TSNode k, Clause *c) {
  if (!ts_node_eq(ts_node_parent(pragma), w->body) || has_jump(w->body, true) ||
      has_jump(w->body, false))
    return false;
  Names body = {L, ARENA_ARRAY(L->a, const char *, 256), 0, 256, false};
  ts_walk(w->body, body_names, &body);
  TSNode *decls = ARENA_ARRAY(L->a, TSNode, 17);
  int nd = 0;
  if (body.bad || !probe_expr(L, w, &body, pragma, k, decls, &nd, 0)) return false;
  c->probe = k, c->probe_decls = decls, c->nprobe_decls = nd;
  return true;
}

static bool find_atomics(void *ctx, TSNode n, int depth) {
  (void)depth;
  Atomics *w = ctx;
  Lower *L = w->L;
  if (ts_is(n, "for_statement") || ts_is(n, "while_statement") || ts_is(n, "do_statement")) {
    // (a loop with its own OpenMP directive: its atomics are its own)
    TSNode prev = ts_node_prev_named_sibling(n);
    if (ts_is(prev, "preproc_call") && !strncmp(node_text(L, prev), "#pragma omp", 11))
      return false;
  }
  if (!ts_is(n, "preproc_call") || strcmp(node_text(L, ts_field(n, "directive")), "#pragma"))
    return true;
  TSNode arg = ts_field(n, "argument");
  OmpLex x = {ts_node_is_null(arg) ? "" : node_text(L, arg), 0, 0};
  x.len = strcspn(x.s, "\r\n");
  const char *w0 = omp_word(L->a, &x), *w1 = omp_word(L->a, &x), *w2 = omp_word(L->a, &x);
  if (!w0 || strcmp(w0, "omp") || !w1 || strcmp(w1, "atomic")) return true;
  Loc loc = node_loc(L, n);
  const char *w3 = omp_word(L->a, &x);
  bool compare = w2 && !strcmp(w2, "compare") && !w3;
  if (w2 && strcmp(w2, "update") && !compare)
    diag_error(loc, "use #pragma omp atomic (update) on h[k] += e, or atomic compare on the "
               "min/max forms", "'#pragma omp atomic %s%s%s' is not read yet (language.md 11)",
               w2, w3 ? " " : "", w3 ? w3 : "");
  TSNode st = next_stmt(n), e = unparen(ts_node_named_child(st, 0)), t = {0};
  const char *target = NULL, *op = NULL;
  if (compare) {
    op = compare_op(L, st, &t);
  } else {
    t = unparen(ts_is(e, "update_expression") ? ts_field(e, "argument") : ts_field(e, "left"));
    target = ts_node_is_null(t) ? NULL : node_text(L, t);
    op = target && ts_is(st, "expression_statement") ? atomic_op(L, e, target) : NULL;
  }
  if (!op || !(ts_is(t, "identifier") ||
               (ts_is(t, "subscript_expression") && ts_is(ts_field(t, "argument"), "identifier"))))
    diag_error(loc, compare ? "write it as if (e > h[k]) { h[k] = e; } or h[k] = e > h[k] ? e : h[k]; "
                              "(< for min)"
                            : "write the update as h[k] += e (or s += e), h an array, s a scalar",
               "this '#pragma omp atomic%s' update is not one adsoac reads yet (language.md 11)",
               compare ? " compare" : "");
  target = node_text(L, t);
  if (ts_is(t, "identifier")) { // a shared scalar: a reduction
    add_clause(w, CL_REDUCE, op, target, loc, NULL);
    return true;
  }
  const char *h = node_text(L, ts_field(t, "argument"));
  Extent ex = {L, h, NULL};
  TSNode def = ts_node_parent(L->fn_body);
  ts_walk(ts_field(def, "declarator"), extent_of, &ex);
  if (!ex.len) ts_walk(L->fn_body, extent_of, &ex);
  Clause probe = {0};
  if (!ex.len && probe_ok(L, w, n, ts_field(t, "index"), &probe)) {
    for (int k = 0; k < w->n; k++)
      if (!strcmp(w->cs[k].vars[0], h))
        diag_error(loc, arena_printf(L->a, "say the section on the loop: #pragma adsoac hist(%s: "
                                     "%s[lo:len])", op, h), "'%s', whose length is not known "
                   "here, is updated atomically twice in the loop (its section is found from "
                   "one update's indices)", h);
    add_clause(w, CL_HIST, op, h, loc, "0");
    Clause *c = &w->cs[w->n - 1];
    c->probe = probe.probe, c->probe_decls = probe.probe_decls;
    c->nprobe_decls = probe.nprobe_decls;
    return true;
  }
  if (!ex.len)
    diag_error(loc, arena_printf(L->a, "declare its length (double %s[NBINS]), or say it on the "
                                 "loop: #pragma adsoac hist(%s: %s[0:len])", h, op, h),
               "the length of '%s', which this '#pragma omp atomic' updates, is not known here, "
               "and the indices the loop updates cannot be found before it (the update is "
               "conditional, or its index depends on what the body computes)", h);
  add_clause(w, CL_HIST, op, h, loc, ex.len);
  return true;
}

// ---- regions: their one-thread execution ----

const char *omp_priv_clause(const Pragma *pr, int k) {
  return pr->lastpriv[k] ? "lastprivate" : pr->firstpriv[k] ? "firstprivate" : "private";
}

void omp_region_private(Lower *L, const Pragma *pr) {
  for (int k = 0; k < pr->npriv; k++) {
    Var *v = var_find(L, pr->priv[k]);
    if (pr->lastpriv[k])
      diag_error(pr->loc, "put lastprivate on the region's omp for",
                 "lastprivate(%s) on '#pragma omp parallel' (OpenMP allows it on loops only)",
                 pr->priv[k]);
    if (!v || v->kind != VAR_SCALAR)
      diag_error(pr->loc, "list scalars declared before the region",
                 "%s(%s) is not a scalar variable in scope (language.md 11)",
                 omp_priv_clause(pr, k), pr->priv[k]);
    var_push(L, (Var){pr->priv[k], v->type, VAR_SCALAR, pr->firstpriv[k] ? v->val : 0, pr->loc});
  }
}

// The reduction form of an update of scalar target in a loop's body: "+", "*", "min", "max"
// (v = fmax(v, e), v = fmin(v, e) too), or NULL.
static const char *update_form(Lower *L, TSNode e, const char *target) {
  const char *op = atomic_op(L, e, target);
  if (op || !ts_is(e, "assignment_expression") ||
      strcmp(node_text(L, ts_field(e, "operator")), "="))
    return op;
  TSNode r = unparen(ts_field(e, "right"));
  if (!ts_is(r, "call_expression")) return NULL;
  const char *f = node_text(L, ts_field(r, "function"));
  TSNode args = ts_field(r, "arguments");
  if (ts_node_named_child_count(args) != 2 ||
      strcmp(node_text(L, unparen(ts_node_named_child(args, 0))), target))
    return NULL;
  return !strcmp(f, "fmax") || !strcmp(f, "fmaxf") ? "max"
         : !strcmp(f, "fmin") || !strcmp(f, "fminf") ? "min" : NULL;
}

typedef struct {
  Atomics *w;
  const Pragma *pr;
} Infer;

// A scalar private to the threads of the team (declared in the region, or in an orphaned omp
// for's function) or a reduction variable of the region, updated in the loop's body in a
// reduction form: the loop's reduction (the hand-written form of the clause, language.md 11).
static bool infer_reductions(void *ctx, TSNode n, int depth) {
  (void)depth;
  Infer *in = ctx;
  Lower *L = in->w->L;
  if (ts_is(n, "for_statement") || ts_is(n, "while_statement") || ts_is(n, "do_statement")) {
    TSNode prev = ts_node_prev_named_sibling(n);
    if (ts_is(prev, "preproc_call") && !strncmp(node_text(L, prev), "#pragma omp", 11))
      return false; // (a loop with its own directive)
  }
  TSNode t = ts_is(n, "update_expression") ? ts_field(n, "argument")
             : ts_is(n, "assignment_expression") ? ts_field(n, "left") : (TSNode){0};
  t = unparen(t);
  if (!ts_is(t, "identifier")) return true;
  const char *name = node_text(L, t);
  Var *v = var_find(L, name);
  if (!v || v->kind != VAR_SCALAR || v->name[0] == '$') return true;
  bool red = false;
  for (int k = 0; k < L->nomp_red; k++) red |= !strcmp(L->omp_red[k], name);
  if (!red && !(in->pr->omp_bound && v->idx >= L->omp_base)) return true;
  for (int k = 0; k < L->ngvar; k++)
    if (L->vars[L->gvar[k].var] == v) return true;
  for (int k = 0; k < in->pr->npriv; k++)
    if (!strcmp(in->pr->priv[k], name)) return true;
  for (int c = 0; c < in->pr->nclauses; c++)
    for (int k = 0; k < in->pr->clauses[c].nvars; k++)
      if (!strcmp(in->pr->clauses[c].vars[k], name)) return true;
  const char *op = update_form(L, n, name);
  if (op) add_clause(in->w, CL_REDUCE, op, name, node_loc(L, n), NULL);
  return true;
}

// --remarks: what an OpenMP loop became, and what of it adsoac took on the programmer's word.
static void omp_remark(Lower *L, const Pragma *pr, int natomic, int ninferred) {
  if (!diag_remarks()) return;
  Buf b = {.arena = L->a};
  static const char *const kinds[] = {"reduce", "scan", "hist"};
  for (int c = 0; c < pr->nclauses; c++) {
    const Clause *cl = &pr->clauses[c];
    buf_printf(&b, "%s%s(%s: ", c ? " " : "", kinds[cl->kind], cl->op);
    for (int v = 0; v < cl->nvars; v++)
      buf_printf(&b, v ? ", %s" : "%s", cl->kind == CL_HIST ? arena_printf(L->a, "%s[%s:%s]",
                 cl->vars[v], cl->lo_text[v], cl->len_text[v]) : cl->vars[v]);
    buf_puts(&b, ")");
  }
  Buf priv = {.arena = L->a};
  bool last = false;
  for (int k = 0; k < pr->npriv; k++) {
    buf_printf(&priv, "%s%s(%s)", k ? ", " : "", omp_priv_clause(pr, k), pr->priv[k]);
    last |= pr->lastpriv[k];
  }
  if (last) buf_puts(&priv, " (lastprivate: after the loop, the last iteration's value)");
  diag_remark(pr->loc, "OpenMP loop read as %s%s%s%s%s%s; taken on the programmer's word (the "
              "directive's assertion): the iterations' independence where adsoac's dependence "
              "test cannot show it%s%s",
              b.data ? "" : "map", b.data ? b.data : "",
              natomic ? arena_printf(L->a, " (%d from its omp atomic updates)", natomic) : "",
              ninferred ? arena_printf(L->a, " (%d from updates of the team's variables, "
                                       "merged after the loop)", ninferred) : "",
              pr->collapse > 1 ? arena_printf(L->a, ", collapse(%d): nested maps", pr->collapse)
                               : "",
              priv.data ? arena_printf(L->a, "; each iteration's own: %s", priv.data) : "",
              natomic ? ", and that the atomic updates are the only writes of their targets" : "",
              ninferred ? ", and that the team's partials are merged once" : "");
}

const Pragma *omp_atomics(Lower *L, const Pragma *pr, TSNode body, Pragma *out) {
  Atomics w = {L, ARENA_ARRAY(L->a, Clause, 32), 0, 32, pr, body};
  ts_walk(body, find_atomics, &w);
  int natomic = w.n;
  Infer in = {&w, pr};
  ts_walk(body, infer_reductions, &in);
  if (!w.n) {
    omp_remark(L, pr, 0, 0);
    return pr;
  }
  *out = *pr;
  out->clauses = ARENA_ARRAY(L->a, Clause, pr->nclauses + w.n);
  if (pr->nclauses) memcpy(out->clauses, pr->clauses, sizeof *pr->clauses * (size_t)pr->nclauses);
  for (int k = 0; k < w.n; k++) {
    for (int c = 0; c < pr->nclauses; c++)
      for (int v = 0; v < pr->clauses[c].nvars; v++)
        if (!strcmp(pr->clauses[c].vars[v], w.cs[k].vars[0]))
          diag_error(w.cs[k].loc, "drop the atomic, or the variable from the reduction clause",
                     "'%s' is both in a reduction clause and updated atomically",
                     w.cs[k].vars[0]);
    out->clauses[out->nclauses++] = w.cs[k];
  }
  out->kind = PR_CLAUSES;
  omp_remark(L, out, natomic, w.n - natomic);
  return out;
}
