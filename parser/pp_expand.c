// parser/pp_expand.c: #define (C11 6.10.3), macro expansion with Prosser's hide sets (6.10.3.1-4,
// as chibicc's preprocess.c does it), and #if expressions (6.10.1).
#define _XOPEN_SOURCE 700 // realpath
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pp.h"

// ---- #define (C11 6.10.3) ----

static int macro_param(const PpMacro *m, const PpTok *t) {
  if (!m->function_like || !t || t->kind != PP_IDENT) return -1;
  for (int i = 0; i < m->nparams; i++)
    if (strcmp(m->params[i], t->text) == 0) return i;
  return -1;
}

static void define_add_param(MacroTable *t, PpMacro *m, int *cap, const char *name, Loc loc) {
  for (int i = 0; i < m->nparams; i++)
    if (strcmp(m->params[i], name) == 0)
      macro_error(t, loc, NULL, "duplicate parameter '%s' of macro '%s'", name, m->name);
  m->params = pp_grow(t->a, m->params, m->nparams, cap, sizeof *m->params);
  m->params[m->nparams++] = name;
}

// '(' identifier-list? ')' | '(' '...' ')' | '(' identifier-list ',' '...' ')', and GNU
// 'name...'; tok is the token after '('.  Returns the token after ')'.
static PpTok *define_params(MacroTable *t, PpMacro *m, PpTok *tok, Loc loc) {
  int cap = 0;
  if (tok_is(tok, ")")) return tok->next;
  for (;;) {
    const char *name = "__VA_ARGS__";
    if (tok && tok->kind == PP_IDENT) {
      name = tok->text;
      tok = tok->next;
    } else if (!tok_is(tok, "...")) {
      macro_error(t, loc, NULL, "expected a parameter name in macro '%s'", m->name);
    }
    if (tok_is(tok, "...")) {
      m->variadic = true;
      tok = tok->next;
    }
    define_add_param(t, m, &cap, name, loc);
    if (tok_is(tok, ")")) return tok->next;
    if (m->variadic || !tok_is(tok, ","))
      macro_error(t, loc, NULL, "expected ',' or ')' in the parameters of macro '%s'", m->name);
    tok = tok->next;
  }
}

// C11 6.10.3.2p1: '#' is followed by a parameter; 6.10.3.3p1: '##' is at neither end.
static void define_check_body(MacroTable *t, const PpMacro *m, Loc loc) {
  for (PpTok *b = m->body; b; b = b->next) {
    if (tok_is(b, "##") && (b == m->body || !b->next))
      macro_error(t, loc, NULL, "'##' cannot be at either end of the body of macro '%s'", m->name);
    if (m->function_like && tok_is(b, "#") && macro_param(m, b->next) < 0)
      macro_error(t, loc, NULL, "'#' is not followed by a parameter in macro '%s'", m->name);
  }
}

// control-line: 'define' identifier replacement-list
//             | 'define' identifier '(' parameters ')' replacement-list  -- no space before '('
PpMacro *define_parse(MacroTable *t, PpTok *toks, Loc loc) {
  if (!toks) macro_error(t, loc, "write '#define NAME value'", "macro name missing");
  if (toks->kind != PP_IDENT)
    macro_error(t, loc, NULL, "macro names must be identifiers, not '%s'", toks->text);
  if (strcmp(toks->text, "defined") == 0)
    macro_error(t, loc, NULL, "'defined' cannot be used as a macro name");
  PpMacro *m = ARENA_NEW(t->a, PpMacro);
  m->name = toks->text;
  PpTok *body = toks->next;
  if (tok_is(body, "(") && !body->space) {
    m->function_like = true;
    body = define_params(t, m, body->next, loc);
  }
  if (body) body->space = false;
  m->body = body;
  define_check_body(t, m, loc);
  return m;
}

// -D NAME (= 1), -D NAME=VALUE, -D NAME(a,b)=VALUE: a #define before the first line.
void define_arg(MacroTable *t, const char *arg) {
  const char *eq = strchr(arg, '=');
  char *text = eq ? arena_printf(t->a, "%.*s %s", (int)(eq - arg), arg, eq + 1)
                  : arena_printf(t->a, "%s 1", arg);
  Loc loc = {"<command line>", 0, 0};
  PpMacro *m = define_parse(t, tok_list(t->a, text, strlen(text)), loc);
  table_set(t, m->name, m, 0);
}

// ---- expansion (C11 6.10.3.1-4) ----



static PpTok *exp_new(PpExp *e, const PpTok *t) {
  if (++e->ntoks > MACRO_MAX_TOKENS)
    macro_error(e->t, e->loc, "look for macros that each expand to several copies of another",
                "macro expansion too large");
  PpTok *c = ARENA_NEW(e->t->a, PpTok);
  *c = *t;
  c->next = NULL;
  return c;
}

// Appends copies of list to out, the first with the given space; an empty list gives a
// placemarker when asked (the operand of '##', 6.10.3.3p2).
static void exp_append(PpExp *e, PpList *out, const PpTok *list, bool space, bool placemarker) {
  if (!list && placemarker) tok_push(out, exp_new(e, &(PpTok){PP_PLACEMARKER, space, "", 0, 0}));
  for (const PpTok *t = list; t; t = t->next) {
    PpTok *c = exp_new(e, t);
    if (t == list) c->space = space;
    tok_push(out, c);
  }
}

static PpTok *exp_arg(PpExp *e, PpArg *arg) {
  if (!arg->done) {
    PpList copy = {0};
    exp_append(e, &copy, arg->raw, false, false);
    arg->expanded = exp_list(e, copy.head);
    arg->done = true;
  }
  return arg->expanded;
}

// '#' parameter (6.10.3.2p2): the argument's spelling in a string literal, each run of
// whitespace as one space, '"' and '\' escaped inside string and character literals.
static PpTok *exp_stringize(PpExp *e, const PpTok *raw, bool space) {
  Buf b = {.arena = e->t->a};
  buf_puts(&b, "\"");
  for (const PpTok *t = raw; t; t = t->next) {
    if (t != raw && t->space) buf_puts(&b, " ");
    bool literal = t->kind == PP_STRING || t->kind == PP_CHAR;
    for (const char *p = t->text; *p; p++) {
      if (literal && (*p == '"' || *p == '\\')) buf_puts(&b, "\\");
      buf_printf(&b, "%c", *p);
    }
  }
  buf_puts(&b, "\"");
  PpTok s = {PP_STRING, space, arena_strndup(e->t->a, b.data, b.len), NULL, NULL};
  buf_free(&b);
  return exp_new(e, &s);
}

// a '##' b (6.10.3.3p3): r is pasted onto l in place and must give one token.
static void exp_paste(PpExp *e, PpTok *l, const PpTok *r) {
  if (r->kind == PP_PLACEMARKER) return;
  if (l->kind == PP_PLACEMARKER) {
    l->kind = r->kind;
    l->text = r->text;
    l->hide = r->hide;
    return;
  }
  char *s = arena_printf(e->t->a, "%s%s", l->text, r->text);
  size_t n = strlen(s);
  PpTokKind kind;
  if (tok_blank(s, n) != 0 || tok_len(s, n, &kind) != n)
    macro_error(e->t, e->loc, NULL, "pasting \"%s\" and \"%s\" does not give a valid token",
                l->text, r->text);
  l->kind = kind;
  l->text = s;
}

// The right operand b of '##' (a parameter: its argument as written; '#' parameter; or a
// token) is pasted onto the end of out.  GNU: ', ## __VA_ARGS__' drops the comma when the
// variable arguments are empty, and pastes nothing otherwise.  Returns the last token used.
static PpTok *exp_paste_rhs(PpExp *e, const PpMacro *m, PpArg *args, PpList *out, PpTok *b) {
  PpList rhs = {0};
  int p = macro_param(m, b);
  bool va = p >= 0 && m->variadic && p == m->nparams - 1;
  if (va && tok_is(out->tail, ",")) {
    if (!args[p].raw) out->tail->kind = PP_PLACEMARKER;
    exp_append(e, out, args[p].raw, false, false);
    return b;
  }
  if (m->function_like && tok_is(b, "#")) {
    b = b->next;
    tok_push(&rhs, exp_stringize(e, args[macro_param(m, b)].raw, false));
  } else if (p >= 0) {
    exp_append(e, &rhs, args[p].raw, false, true);
  } else {
    tok_push(&rhs, exp_new(e, b));
  }
  exp_paste(e, out->tail, rhs.head);
  if (rhs.head->next) {
    out->tail->next = rhs.head->next;
    out->tail = rhs.tail;
  }
  return b;
}

// Replacement (6.10.3.1): a parameter becomes its fully expanded argument, or the argument
// as written next to '#' or '##'; then every token gets the hide set hs.
static PpTok *exp_subst(PpExp *e, const PpMacro *m, PpArg *args, PpHide *hs) {
  PpList out = {0};
  for (PpTok *b = m->body; b; b = b->next) {
    int p = macro_param(m, b);
    if (m->function_like && tok_is(b, "#")) {
      b = b->next;
      tok_push(&out, exp_stringize(e, args[macro_param(m, b)].raw, b->space));
    } else if (tok_is(b, "##")) {
      b = exp_paste_rhs(e, m, args, &out, b->next);
    } else if (p >= 0 && tok_is(b->next, "##")) {
      exp_append(e, &out, args[p].raw, b->space, true);
    } else if (p >= 0) {
      exp_append(e, &out, exp_arg(e, &args[p]), b->space, false);
    } else {
      tok_push(&out, exp_new(e, b));
    }
  }
  PpList res = {0};
  for (PpTok *t = out.head, *next; t; t = next) {
    next = t->next;
    if (t->kind == PP_PLACEMARKER) continue;
    t->hide = hide_union(e->t->a, t->hide, hs);
    tok_push(&res, t);
  }
  return res.head;
}

// 6.10.3p4: as many arguments as parameters ("()" is one empty argument of a one-parameter
// macro); a variadic macro needs the named ones, and its variable part may be left out.
static PpArg *exp_check_count(PpExp *e, const PpMacro *m, PpArg *args, int *n, int *cap) {
  int want = m->nparams;
  if ((*n == 0 && want == 1) || (m->variadic && *n == want - 1)) {
    args = pp_grow(e->t->a, args, *n, cap, sizeof *args);
    args[(*n)++] = (PpArg){0};
  }
  if (*n == want || (m->variadic && *n > want)) return args;
  const char *at_least = m->variadic ? "at least " : "";
  macro_error(e->t, e->loc, NULL, "macro '%s' takes %s%d argument%s, but %d %s given", m->name,
              at_least, want - m->variadic, want - m->variadic == 1 ? "" : "s", *n,
              *n == 1 ? "was" : "were");
}

// The arguments after '(' (6.10.3p11): split at top-level commas, except that the commas
// of the variable part stay in __VA_ARGS__.  Returns the matching ')', or NULL if none.
static PpTok *exp_collect(PpExp *e, const PpMacro *m, PpTok *lparen, PpArg **out) {
  PpArg *args = NULL;
  int n = 0, cap = 0, depth = 0;
  bool any = false;
  PpList cur = {0};
  PpTok *t = lparen->next;
  for (; t && !(depth == 0 && tok_is(t, ")")); t = t->next) {
    any = true;
    if (depth == 0 && tok_is(t, ",") && !(m->variadic && n == m->nparams - 1)) {
      args = pp_grow(e->t->a, args, n, &cap, sizeof *args);
      args[n++] = (PpArg){cur.head, NULL, false};
      cur = (PpList){0};
      continue;
    }
    depth += tok_is(t, "(") - tok_is(t, ")");
    tok_push(&cur, exp_new(e, t));
  }
  if (!t) return NULL;
  if (any) {
    args = pp_grow(e->t->a, args, n, &cap, sizeof *args);
    args[n++] = (PpArg){cur.head, NULL, false};
  }
  *out = exp_check_count(e, m, args, &n, &cap);
  return t;
}

// Replaces the use of m at *tok by its expansion, followed by the tokens after the use.
// The expansion's hide set is the use's plus m (for a call: the intersection of the name's
// and the ')''s).  False for a function-like macro with no argument list.
static bool exp_invoke(PpExp *e, const PpMacro *m, PpTok **tok) {
  Arena *a = e->t->a;
  PpTok *name = *tok, *rest = name->next;
  PpArg *args = NULL;
  PpHide *hs = name->hide;
  if (m->function_like) {
    PpTok *rparen = tok_is(name->next, "(") ? exp_collect(e, m, name->next, &args) : NULL;
    if (!rparen) return false;
    rest = rparen->next;
    hs = hide_inter(a, name->hide, rparen->hide);
  }
  PpTok *body = exp_subst(e, m, args, hide_add(a, hs, m->name));
  if (!body) {
    *tok = rest;
    return true;
  }
  body->space = name->space;
  PpTok *last = body;
  while (last->next)
    last = last->next;
  last->next = rest;
  *tok = body;
  return true;
}

// Rescanning (6.10.3.4): the list is read left to right and every macro use not in its
// token's hide set is replaced, the expansion being read again with what follows.
PpTok *exp_list(PpExp *e, PpTok *tok) {
  PpList out = {0};
  while (tok) {
    PpMacro *m = NULL;
    if (tok->kind == PP_IDENT && !hide_has(tok->hide, tok->text))
      m = table_lookup(e->t, tok->text, e->at);
    if (m && exp_invoke(e, m, &tok)) continue;
    PpTok *next = tok->next;
    tok_push(&out, tok);
    tok = next;
  }
  return out.head;
}

// ---- #if expressions (C11 6.10.1) ----

typedef struct {
  uint64_t v;
  bool is_unsigned;
} PpVal;

typedef struct {
  MacroTable *t;
  PpTok *tok; // the next token
  Loc loc;    // the directive
  int depth;  // of recursion, against stack overflow
} PpEv;

static PpVal ev_int(bool b) {
  return (PpVal){b, false};
}

static PpVal ev_cond(PpEv *v, bool eval);

static int ev_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// integer-constant (6.4.4.1) with its u and l/ll suffixes, and gcc's 0b; too large for
// intmax_t means unsigned.
static PpVal ev_number(PpEv *v, const PpTok *t) {
  const char *s = t->text;
  unsigned base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, s += 2;
  else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
    base = 2, s += 2;
  else if (s[0] == '0')
    base = 8;
  uint64_t x = 0;
  bool overflow = false, u = false, l = false;
  const char *p = s;
  for (int d; (d = ev_digit(*p)) >= 0 && (unsigned)d < base; p++) {
    overflow |= x > (UINT64_MAX - (unsigned)d) / base;
    x = x * base + (unsigned)d;
  }
  bool bad = p == s;
  for (; *p && !bad; p++) {
    if ((*p == 'u' || *p == 'U') && !u)
      u = true;
    else if ((*p == 'l' || *p == 'L') && !l)
      l = true, p += p[1] == p[0];
    else
      bad = true;
  }
  if (bad) macro_error(v->t, v->loc, NULL, "invalid integer constant '%s' in #if", t->text);
  if (overflow) macro_error(v->t, v->loc, NULL, "integer constant '%s' is too large", t->text);
  return (PpVal){x, u || x > INT64_MAX};
}

// Up to two more octal digits after the first one, d.
static uint64_t ev_octal(uint64_t d, const char **pp) {
  for (int i = 0; i < 2 && **pp >= '0' && **pp <= '7'; i++)
    d = d * 8 + (uint64_t)(*(*pp)++ - '0');
  return d;
}

// One character of a character constant, escape sequences included (6.4.4.4).
static uint64_t ev_escape(const char **pp) {
  static const char from[] = "ntrabfve", to[] = "\n\t\r\a\b\f\v\033";
  const char *p = *pp;
  uint64_t c = (unsigned char)*p++;
  if (c == '\\' && *p) {
    c = (unsigned char)*p++;
    const char *k = strchr(from, (int)c);
    if (k)
      c = (unsigned char)to[k - from];
    else if (c == 'x')
      for (c = 0; ev_digit(*p) >= 0; p++)
        c = c * 16 + (uint64_t)ev_digit(*p);
    else if (c >= '0' && c <= '7')
      c = ev_octal(c - '0', &p);
  }
  *pp = p;
  return c;
}

// character-constant: an int; a plain one of one character is a (signed) char.
static PpVal ev_char(const PpTok *t) {
  const char *q = strchr(t->text, '\''), *p = q + 1;
  uint64_t x = 0;
  int n = 0;
  for (; *p && *p != '\''; n++)
    x = (q == t->text ? x << 8 : 0) | ev_escape(&p);
  if (q == t->text && n == 1) x = (uint64_t)(int64_t)(signed char)(unsigned char)x;
  return (PpVal){x, false};
}

// One more level of nesting; the levels are few in real code and the parser recurses.
static void ev_enter(PpEv *v) {
  if (++v->depth > MACRO_MAX_NESTING)
    macro_error(v->t, v->loc, NULL, "#if expression nested too deeply");
}

static void ev_expect(PpEv *v, const char *punct) {
  if (!tok_is(v->tok, punct))
    macro_error(v->t, v->loc, NULL, "expected '%s' in #if expression", punct);
  v->tok = v->tok->next;
}

// An identifier left after expansion is 0 (6.10.1p4).  Leniently, so is an unknown
// built-in applied to arguments (__has_include(...), __has_attribute(...)).
static PpVal ev_ident(PpEv *v) {
  if (!tok_is(v->tok, "(")) return ev_int(0);
  int depth = 0;
  do {
    depth += tok_is(v->tok, "(") - tok_is(v->tok, ")");
    v->tok = v->tok->next;
  } while (v->tok && depth > 0);
  if (depth > 0) macro_error(v->t, v->loc, NULL, "missing ')' in #if expression");
  return ev_int(0);
}

// primary: integer-constant | character-constant | identifier | '(' expression ')'
static PpVal ev_primary(PpEv *v, bool eval) {
  PpTok *t = v->tok;
  if (!t) macro_error(v->t, v->loc, NULL, "#if expression ends too early");
  v->tok = t->next;
  if (tok_is(t, "(")) {
    ev_enter(v);
    PpVal x = ev_cond(v, eval);
    v->depth--;
    ev_expect(v, ")");
    return x;
  }
  if (t->kind == PP_NUMBER) return ev_number(v, t);
  if (t->kind == PP_CHAR) return ev_char(t);
  if (t->kind == PP_IDENT) return ev_ident(v);
  macro_error(v->t, v->loc, NULL, "'%s' is not valid in a #if expression", t->text);
}

// unary: ('+' | '-' | '~' | '!') unary | primary
static PpVal ev_unary(PpEv *v, bool eval) {
  PpTok *t = v->tok;
  if (!t || t->kind != PP_PUNCT || t->text[1] || !strchr("+-~!", t->text[0]))
    return ev_primary(v, eval);
  v->tok = t->next;
  ev_enter(v);
  PpVal x = ev_unary(v, eval);
  v->depth--;
  switch (t->text[0]) {
  case '-': x.v = 0 - x.v; return x;
  case '~': x.v = ~x.v; return x;
  case '!': return ev_int(x.v == 0);
  }
  return x;
}

// << and >> have the left operand's type; a negative or too large count gives 0 (-1 for a
// negative value shifted right), where C leaves it undefined.
static PpVal ev_shift(PpVal l, PpVal r, bool left) {
  bool neg = !l.is_unsigned && (int64_t)l.v < 0;
  if ((!r.is_unsigned && (int64_t)r.v < 0) || r.v >= 64)
    return (PpVal){left || !neg ? 0 : UINT64_MAX, l.is_unsigned};
  if (left) return (PpVal){l.v << r.v, l.is_unsigned};
  return (PpVal){neg ? ~(~l.v >> r.v) : l.v >> r.v, l.is_unsigned};
}

// / and %: division by zero is an error where evaluated; INTMAX_MIN / -1 wraps.
static PpVal ev_div(PpEv *v, PpVal l, PpVal r, bool rem, bool eval) {
  if (r.v == 0) {
    if (eval) macro_error(v->t, v->loc, NULL, "division by zero in #if");
    return ev_int(0);
  }
  if (l.is_unsigned || r.is_unsigned) return (PpVal){rem ? l.v % r.v : l.v / r.v, true};
  int64_t a = (int64_t)l.v, b = (int64_t)r.v;
  if (a == INT64_MIN && b == -1) return (PpVal){rem ? 0 : l.v, false};
  return (PpVal){(uint64_t)(rem ? a % b : a / b), false};
}

static bool ev_less(PpVal l, PpVal r, bool u) {
  return u ? l.v < r.v : (int64_t)l.v < (int64_t)r.v;
}

// l op r with the usual arithmetic conversions on intmax_t and uintmax_t (6.10.1p4).
static PpVal ev_apply(PpEv *v, const char *op, PpVal l, PpVal r, bool eval) {
  bool u = l.is_unsigned || r.is_unsigned;
  if (!strcmp(op, "||")) return ev_int(l.v || r.v);
  if (!strcmp(op, "&&")) return ev_int(l.v && r.v);
  if (!strcmp(op, "==")) return ev_int(l.v == r.v);
  if (!strcmp(op, "!=")) return ev_int(l.v != r.v);
  if (!strcmp(op, "<=")) return ev_int(!ev_less(r, l, u));
  if (!strcmp(op, ">=")) return ev_int(!ev_less(l, r, u));
  if (!strcmp(op, "<<")) return ev_shift(l, r, true);
  if (!strcmp(op, ">>")) return ev_shift(l, r, false);
  switch (op[0]) {
  case '<': return ev_int(ev_less(l, r, u));
  case '>': return ev_int(ev_less(r, l, u));
  case '|': return (PpVal){l.v | r.v, u};
  case '^': return (PpVal){l.v ^ r.v, u};
  case '&': return (PpVal){l.v & r.v, u};
  case '+': return (PpVal){l.v + r.v, u};
  case '-': return (PpVal){l.v - r.v, u};
  case '*': return (PpVal){l.v * r.v, u};
  }
  return ev_div(v, l, r, op[0] == '%', eval);
}

static const struct {
  const char *op;
  int prec;
} ev_ops[] = {
    {"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4},  {"&", 5},  {"==", 6},
    {"!=", 6}, {"<", 7},  {">", 7}, {"<=", 7}, {">=", 7}, {"<<", 8},
    {">>", 8}, {"+", 9},  {"-", 9}, {"*", 10}, {"/", 10}, {"%", 10},
};

static int ev_prec(const PpTok *t) {
  for (size_t i = 0; t && t->kind == PP_PUNCT && i < sizeof ev_ops / sizeof *ev_ops; i++)
    if (strcmp(t->text, ev_ops[i].op) == 0) return ev_ops[i].prec;
  return 0;
}

// The binary operators of 6.5.5-6.5.14 by precedence climbing; the right operand of && and
// || is parsed but not evaluated when the left one decides.
static PpVal ev_binary(PpEv *v, int min_prec, bool eval) {
  PpVal l = ev_unary(v, eval);
  for (int prec; (prec = ev_prec(v->tok)) >= min_prec;) {
    const char *op = v->tok->text;
    v->tok = v->tok->next;
    bool reval = eval;
    if (!strcmp(op, "&&")) reval = eval && l.v != 0;
    if (!strcmp(op, "||")) reval = eval && l.v == 0;
    PpVal r = ev_binary(v, prec + 1, reval);
    l = ev_apply(v, op, l, r, reval);
  }
  return l;
}

// conditional: logical-or ('?' expression ':' conditional)?
static PpVal ev_cond(PpEv *v, bool eval) {
  PpVal c = ev_binary(v, 1, eval);
  if (!tok_is(v->tok, "?")) return c;
  v->tok = v->tok->next;
  ev_enter(v);
  PpVal x = ev_cond(v, eval && c.v != 0);
  ev_expect(v, ":");
  PpVal y = ev_cond(v, eval && c.v == 0);
  v->depth--;
  PpVal r = c.v ? x : y;
  r.is_unsigned = x.is_unsigned || y.is_unsigned;
  return r;
}

// 'defined' identifier | 'defined' '(' identifier ')' becomes 1 or 0 before expansion.
static PpTok *ev_defined(MacroTable *t, PpTok *toks, Loc loc) {
  PpList out = {0};
  for (PpTok *tok = toks, *next; tok; tok = next) {
    next = tok->next;
    if (tok->kind == PP_IDENT && strcmp(tok->text, "defined") == 0) {
      bool paren = tok_is(next, "(");
      PpTok *name = paren ? next->next : next;
      if (!name || name->kind != PP_IDENT)
        macro_error(t, loc, NULL, "operator 'defined' requires an identifier");
      next = name->next;
      if (paren && !tok_is(next, ")")) macro_error(t, loc, NULL, "missing ')' after 'defined'");
      next = paren ? next->next : next;
      tok->kind = PP_NUMBER;
      tok->text = table_lookup(t, name->text, UINT32_MAX) ? "1" : "0";
    }
    tok_push(&out, tok);
  }
  return out.head;
}

// #if and #elif: 'defined', then macro replacement, then the constant expression.
bool ev_if(MacroTable *t, PpTok *toks, Loc loc) {
  PpExp e = {t, UINT32_MAX, loc, 0};
  PpEv v = {t, exp_list(&e, ev_defined(t, toks, loc)), loc, 0};
  if (!v.tok) macro_error(t, loc, NULL, "#if with no expression");
  PpVal x = ev_cond(&v, true);
  if (v.tok) macro_error(t, loc, NULL, "unexpected '%s' in #if expression", v.tok->text);
  return x.v != 0;
}
