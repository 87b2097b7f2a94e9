// parser/macro.c: the preprocessor subset of parser/macro.h (C11 6.10): conditionals,
// #define/#undef with the offset where each takes effect, #include "file", and macro
// expansion with Prosser's hide sets (as chibicc's preprocess.c does it).
#define _XOPEN_SOURCE 700 // realpath
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"

#define MACRO_MAX_DEPTH 200        // #include nesting, as gcc
#define MACRO_MAX_TOKENS (1 << 22) // tokens one expansion may create

// ---- tokens ----

typedef enum { TK_IDENT, TK_NUMBER, TK_STRING, TK_CHAR, TK_PUNCT, TK_OTHER, TK_PLACEMARKER } TokKind;

// A hide set: the macros whose expansion produced a token, which it must not invoke again.
typedef struct Hide {
  const char *name;
  struct Hide *next;
} Hide;

typedef struct Tok {
  TokKind kind;
  bool space; // whitespace before it
  const char *text;
  Hide *hide;
  struct Tok *next;
} Tok;

typedef struct {
  Tok *head, *tail;
} TokList;

static void list_push(TokList *l, Tok *t) {
  t->next = NULL;
  if (l->tail)
    l->tail->next = t;
  else
    l->head = t;
  l->tail = t;
}

// ---- the table ----

typedef struct Macro {
  const char *name;
  bool function_like, variadic;
  const char **params; // variadic: the last is __VA_ARGS__ (or the GNU name before "...")
  int nparams;
  Tok *body;
} Macro;

// A #define (macro != NULL) or #undef, in force from byte pos of the main file on.
typedef struct Version {
  uint32_t pos;
  Macro *macro;
  struct Version *prev;
} Version;

typedef struct {
  const char *name;
  Version *newest;
} Entry;

typedef struct File {
  const char *path; // as opened (the main file: as named on the command line)
  const char *real; // canonical path: #include of the same file finds this File again
  Src src;
  char *text;      // src.text without its backslash-newlines (translation phase 2)
  uint32_t *phys;  // phys[i]: offset in src.text of text[i]; phys[len] == src.len
  size_t len;
  uint32_t *lines; // offsets of the line starts in src.text
  size_t nlines;
  char *active;    // the main file: the copy of src.text that gets blanked
  bool once;       // #pragma once seen
  bool listed;     // in deps
  struct File *next;
} File;

struct MacroTable {
  Arena *a;
  File *main;
  File *cur; // the file being read, for diagnostics
  const char **incdirs;
  int nincdirs;
  Entry **slots; // open addressing, power-of-two capacity
  size_t cap, count;
  File *files; // every included file, by canonical path
  File **deps;
  int ndeps, capdeps;
  const char **dep_paths;
};

// Room for element n of an arena array of capacity *cap.
static void *grow(Arena *a, void *p, int n, int *cap, size_t size) {
  if (n < *cap) return p;
  int ncap = *cap ? 2 * *cap : 8;
  void *q = arena_alloc(a, (size_t)ncap * size);
  if (n) memcpy(q, p, (size_t)n * size);
  *cap = ncap;
  return q;
}

// Every error of the module; one in an included file shows that file's line.
static _Noreturn void macro_error(MacroTable *t, Loc loc, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void macro_error(MacroTable *t, Loc loc, const char *hint, const char *fmt, ...) {
  Buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  char *msg = arena_strndup(t->a, b.data, b.len);
  buf_free(&b);
  if (t->cur && t->cur != t->main) diag_set_source(&t->cur->src);
  diag_error(loc, hint, "%s", msg);
}

// ---- tokenizer (C11 6.4: preprocessing tokens) ----

static bool is_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

static bool is_ident_char(unsigned char c) {
  return is_ident_start(c) || is_digit(c);
}

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The index just past the "*/" that closes a comment whose text starts at s[i].
static size_t comment_end(const char *s, size_t n, size_t i) {
  for (; i + 1 < n; i++)
    if (s[i] == '*' && s[i + 1] == '/') return i + 2;
  return n;
}

// Length of the whitespace and comments at s[0..n).
static size_t tok_blank(const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (is_space(s[i])) {
      i++;
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') i++;
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
      i = comment_end(s, n, i + 2);
    } else {
      break;
    }
  }
  return i;
}

// A string or character literal from its opening quote to the closing one; an unterminated
// one stops at the end of the line.
static size_t tok_quoted(const char *s, size_t n) {
  size_t i = 1;
  while (i < n && s[i] != s[0] && s[i] != '\n')
    i += s[i] == '\\' && i + 1 < n && s[i + 1] != '\n' ? 2 : 1;
  return i < n && s[i] == s[0] ? i + 1 : i;
}

// pp-number: '.'? digit (digit | identifier-nondigit | [eEpP] sign | '.')*
static size_t tok_number(const char *s, size_t n) {
  size_t i = s[0] == '.' ? 2 : 1;
  while (i < n) {
    char c = s[i];
    bool exp = c == 'e' || c == 'E' || c == 'p' || c == 'P';
    if (exp && i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-'))
      i += 2;
    else if (is_ident_char((unsigned char)c) || c == '.')
      i++;
    else
      break;
  }
  return i;
}

// encoding-prefix of a literal: L u U u8
static bool tok_is_prefix(const char *s, size_t n) {
  return (n == 1 && (s[0] == 'L' || s[0] == 'u' || s[0] == 'U')) ||
         (n == 2 && s[0] == 'u' && s[1] == '8');
}

static const char *const tok_puncts[] = {
    "%:%:", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
    "||",   "*=",  "/=",  "%=",  "+=", "-=", "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>", "%:",
};

// Length and kind of the preprocessing token at s[0..n), n > 0, longest match first.
static size_t tok_len(const char *s, size_t n, TokKind *kind) {
  unsigned char c = (unsigned char)s[0];
  if (is_ident_start(c)) {
    size_t i = 1;
    while (i < n && is_ident_char((unsigned char)s[i])) i++;
    if (i < n && (s[i] == '"' || s[i] == '\'') && tok_is_prefix(s, i)) {
      *kind = s[i] == '"' ? TK_STRING : TK_CHAR;
      return i + tok_quoted(s + i, n - i);
    }
    *kind = TK_IDENT;
    return i;
  }
  if (is_digit(c) || (c == '.' && n > 1 && is_digit((unsigned char)s[1]))) {
    *kind = TK_NUMBER;
    return tok_number(s, n);
  }
  if (c == '"' || c == '\'') {
    *kind = c == '"' ? TK_STRING : TK_CHAR;
    return tok_quoted(s, n);
  }
  for (size_t k = 0; k < sizeof tok_puncts / sizeof *tok_puncts; k++) {
    size_t len = strlen(tok_puncts[k]);
    if (len <= n && memcmp(s, tok_puncts[k], len) == 0) {
      *kind = TK_PUNCT;
      return len;
    }
  }
  *kind = c && strchr("[](){}.&*+-~!/%<>^|?:;=,#", c) ? TK_PUNCT : TK_OTHER;
  return 1;
}

// The tokens of s[0..n); comments are whitespace.
static Tok *tok_list(Arena *a, const char *s, size_t n) {
  TokList l = {0};
  size_t i = 0;
  for (;;) {
    size_t blank = tok_blank(s + i, n - i);
    i += blank;
    if (i >= n) return l.head;
    Tok *t = ARENA_NEW(a, Tok);
    size_t len = tok_len(s + i, n - i, &t->kind);
    t->space = blank > 0;
    t->text = arena_strndup(a, s + i, len);
    list_push(&l, t);
    i += len;
  }
}

static bool tok_is(const Tok *t, const char *punct) {
  return t && t->kind == TK_PUNCT && strcmp(t->text, punct) == 0;
}

// Whether b written right after a would lex differently (merge, or open a comment).
static bool tok_would_merge(Arena *a, const Tok *x, const Tok *y) {
  size_t lx = strlen(x->text), ly = strlen(y->text);
  if (lx == 0 || ly == 0) return false;
  if (x->text[lx - 1] == '/' && (y->text[0] == '/' || y->text[0] == '*')) return true;
  char *s = arena_printf(a, "%s%s", x->text, y->text);
  TokKind kind;
  return tok_len(s, lx + ly, &kind) != lx;
}

// The text of a token list: a space where the source had whitespace, or where two tokens
// would otherwise run together.
static char *tok_join(Arena *a, const Tok *t) {
  Buf b = {0};
  buf_puts(&b, "");
  for (const Tok *prev = NULL; t; prev = t, t = t->next) {
    if (prev && (t->space || tok_would_merge(a, prev, t))) buf_puts(&b, " ");
    buf_puts(&b, t->text);
  }
  char *s = arena_strndup(a, b.data, b.len);
  buf_free(&b);
  return s;
}

// ---- hide sets ----

static bool hide_has(const Hide *h, const char *name) {
  for (; h; h = h->next)
    if (strcmp(h->name, name) == 0) return true;
  return false;
}

static Hide *hide_add(Arena *a, Hide *h, const char *name) {
  if (hide_has(h, name)) return h;
  Hide *n = ARENA_NEW(a, Hide);
  n->name = name;
  n->next = h;
  return n;
}

static Hide *hide_union(Arena *a, Hide *x, const Hide *y) {
  for (; y; y = y->next) x = hide_add(a, x, y->name);
  return x;
}

static Hide *hide_inter(Arena *a, const Hide *x, const Hide *y) {
  Hide *r = NULL;
  for (; x; x = x->next)
    if (hide_has(y, x->name)) r = hide_add(a, r, x->name);
  return r;
}

// ---- macro table: name -> versions, newest first ----

static uint64_t table_hash(const char *s) {
  uint64_t h = 1469598103934665603u; // FNV-1a
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static void table_grow(MacroTable *t) {
  size_t cap = t->cap ? 2 * t->cap : 64;
  Entry **slots = ARENA_ARRAY(t->a, Entry *, cap);
  for (size_t k = 0; k < t->cap; k++) {
    if (!t->slots[k]) continue;
    size_t i = table_hash(t->slots[k]->name) & (cap - 1);
    while (slots[i]) i = (i + 1) & (cap - 1);
    slots[i] = t->slots[k];
  }
  t->slots = slots;
  t->cap = cap;
}

// The entry of name; created when create is set, else NULL when absent.
static Entry *table_entry(MacroTable *t, const char *name, bool create) {
  if (create && 2 * (t->count + 1) > t->cap) table_grow(t);
  if (t->cap == 0) return NULL;
  size_t i = table_hash(name) & (t->cap - 1);
  for (; t->slots[i]; i = (i + 1) & (t->cap - 1))
    if (strcmp(t->slots[i]->name, name) == 0) return t->slots[i];
  if (!create) return NULL;
  Entry *e = ARENA_NEW(t->a, Entry);
  e->name = arena_strdup(t->a, name);
  t->slots[i] = e;
  t->count++;
  return e;
}

// Records a #define (m) or #undef (m == NULL) of name, in force from pos on.
static void table_set(MacroTable *t, const char *name, Macro *m, uint32_t pos) {
  Entry *e = table_entry(t, name, true);
  Version *v = ARENA_NEW(t->a, Version);
  v->pos = pos;
  v->macro = m;
  v->prev = e->newest;
  e->newest = v;
}

// The macro name at byte `at` of the main file (UINT32_MAX: the newest definition).
static Macro *table_lookup(MacroTable *t, const char *name, uint32_t at) {
  Entry *e = table_entry(t, name, false);
  for (Version *v = e ? e->newest : NULL; v; v = v->prev)
    if (v->pos <= at) return v->macro;
  return NULL;
}

// ---- #define (C11 6.10.3) ----

static int macro_param(const Macro *m, const Tok *t) {
  if (!m->function_like || !t || t->kind != TK_IDENT) return -1;
  for (int i = 0; i < m->nparams; i++)
    if (strcmp(m->params[i], t->text) == 0) return i;
  return -1;
}

static void define_add_param(MacroTable *t, Macro *m, int *cap, const char *name, Loc loc) {
  for (int i = 0; i < m->nparams; i++)
    if (strcmp(m->params[i], name) == 0)
      macro_error(t, loc, NULL, "duplicate parameter '%s' of macro '%s'", name, m->name);
  m->params = grow(t->a, m->params, m->nparams, cap, sizeof *m->params);
  m->params[m->nparams++] = name;
}

// '(' identifier-list? ')' | '(' '...' ')' | '(' identifier-list ',' '...' ')', and GNU
// 'name...'; tok is the token after '('.  Returns the token after ')'.
static Tok *define_params(MacroTable *t, Macro *m, Tok *tok, Loc loc) {
  int cap = 0;
  if (tok_is(tok, ")")) return tok->next;
  for (;;) {
    const char *name = "__VA_ARGS__";
    if (tok && tok->kind == TK_IDENT) {
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
static void define_check_body(MacroTable *t, const Macro *m, Loc loc) {
  for (Tok *b = m->body; b; b = b->next) {
    if (tok_is(b, "##") && (b == m->body || !b->next))
      macro_error(t, loc, NULL, "'##' cannot be at either end of the body of macro '%s'", m->name);
    if (m->function_like && tok_is(b, "#") && macro_param(m, b->next) < 0)
      macro_error(t, loc, NULL, "'#' is not followed by a parameter in macro '%s'", m->name);
  }
}

// control-line: 'define' identifier replacement-list
//             | 'define' identifier '(' parameters ')' replacement-list  -- no space before '('
static Macro *define_parse(MacroTable *t, Tok *toks, Loc loc) {
  if (!toks) macro_error(t, loc, "write '#define NAME value'", "macro name missing");
  if (toks->kind != TK_IDENT)
    macro_error(t, loc, NULL, "macro names must be identifiers, not '%s'", toks->text);
  if (strcmp(toks->text, "defined") == 0)
    macro_error(t, loc, NULL, "'defined' cannot be used as a macro name");
  Macro *m = ARENA_NEW(t->a, Macro);
  m->name = toks->text;
  Tok *body = toks->next;
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
static void define_arg(MacroTable *t, const char *arg) {
  const char *eq = strchr(arg, '=');
  char *text = eq ? arena_printf(t->a, "%.*s %s", (int)(eq - arg), arg, eq + 1)
                  : arena_printf(t->a, "%s 1", arg);
  Loc loc = {"<command line>", 0, 0};
  Macro *m = define_parse(t, tok_list(t->a, text, strlen(text)), loc);
  table_set(t, m->name, m, 0);
}

// ---- expansion (C11 6.10.3.1-4) ----

typedef struct {
  Tok *raw;      // as written
  Tok *expanded; // fully macro-replaced, made on first use
  bool done;
} Arg;

typedef struct {
  MacroTable *t;
  uint32_t at; // the definitions in force at this byte of the main file
  Loc loc;     // the use, for errors
  size_t ntoks;
} Exp;

static Tok *exp_list(Exp *e, Tok *tok);

static Tok *exp_new(Exp *e, const Tok *t) {
  if (++e->ntoks > MACRO_MAX_TOKENS)
    macro_error(e->t, e->loc, "look for macros that each expand to several copies of another",
                "macro expansion too large");
  Tok *c = ARENA_NEW(e->t->a, Tok);
  *c = *t;
  c->next = NULL;
  return c;
}

// Appends copies of list to out, the first with the given space; an empty list gives a
// placemarker when asked (the operand of '##', 6.10.3.3p2).
static void exp_append(Exp *e, TokList *out, const Tok *list, bool space, bool placemarker) {
  if (!list && placemarker) list_push(out, exp_new(e, &(Tok){TK_PLACEMARKER, space, "", 0, 0}));
  for (const Tok *t = list; t; t = t->next) {
    Tok *c = exp_new(e, t);
    if (t == list) c->space = space;
    list_push(out, c);
  }
}

static Tok *exp_arg(Exp *e, Arg *arg) {
  if (!arg->done) {
    TokList copy = {0};
    exp_append(e, &copy, arg->raw, false, false);
    arg->expanded = exp_list(e, copy.head);
    arg->done = true;
  }
  return arg->expanded;
}

// '#' parameter (6.10.3.2p2): the argument's spelling in a string literal, each run of
// whitespace as one space, '"' and '\' escaped inside string and character literals.
static Tok *exp_stringize(Exp *e, const Tok *raw, bool space) {
  Buf b = {0};
  buf_puts(&b, "\"");
  for (const Tok *t = raw; t; t = t->next) {
    if (t != raw && t->space) buf_puts(&b, " ");
    bool literal = t->kind == TK_STRING || t->kind == TK_CHAR;
    for (const char *p = t->text; *p; p++) {
      if (literal && (*p == '"' || *p == '\\')) buf_puts(&b, "\\");
      buf_printf(&b, "%c", *p);
    }
  }
  buf_puts(&b, "\"");
  Tok s = {TK_STRING, space, arena_strndup(e->t->a, b.data, b.len), NULL, NULL};
  buf_free(&b);
  return exp_new(e, &s);
}

// a '##' b (6.10.3.3p3): r is pasted onto l in place and must give one token.
static void exp_paste(Exp *e, Tok *l, const Tok *r) {
  if (r->kind == TK_PLACEMARKER) return;
  if (l->kind == TK_PLACEMARKER) {
    l->kind = r->kind;
    l->text = r->text;
    l->hide = r->hide;
    return;
  }
  char *s = arena_printf(e->t->a, "%s%s", l->text, r->text);
  size_t n = strlen(s);
  TokKind kind;
  if (tok_blank(s, n) != 0 || tok_len(s, n, &kind) != n)
    macro_error(e->t, e->loc, NULL, "pasting \"%s\" and \"%s\" does not give a valid token",
                l->text, r->text);
  l->kind = kind;
  l->text = s;
}

// The right operand b of '##' (a parameter: its argument as written; '#' parameter; or a
// token) is pasted onto the end of out.  GNU: ', ## __VA_ARGS__' drops the comma when the
// variable arguments are empty, and pastes nothing otherwise.  Returns the last token used.
static Tok *exp_paste_rhs(Exp *e, const Macro *m, Arg *args, TokList *out, Tok *b) {
  TokList rhs = {0};
  int p = macro_param(m, b);
  bool va = p >= 0 && m->variadic && p == m->nparams - 1;
  if (va && tok_is(out->tail, ",")) {
    if (!args[p].raw) out->tail->kind = TK_PLACEMARKER;
    exp_append(e, out, args[p].raw, b->space, false);
    return b;
  }
  if (m->function_like && tok_is(b, "#")) {
    b = b->next;
    list_push(&rhs, exp_stringize(e, args[macro_param(m, b)].raw, false));
  } else if (p >= 0) {
    exp_append(e, &rhs, args[p].raw, false, true);
  } else {
    list_push(&rhs, exp_new(e, b));
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
static Tok *exp_subst(Exp *e, const Macro *m, Arg *args, Hide *hs) {
  TokList out = {0};
  for (Tok *b = m->body; b; b = b->next) {
    int p = macro_param(m, b);
    if (m->function_like && tok_is(b, "#")) {
      b = b->next;
      list_push(&out, exp_stringize(e, args[macro_param(m, b)].raw, b->space));
    } else if (tok_is(b, "##")) {
      b = exp_paste_rhs(e, m, args, &out, b->next);
    } else if (p >= 0 && tok_is(b->next, "##")) {
      exp_append(e, &out, args[p].raw, b->space, true);
    } else if (p >= 0) {
      exp_append(e, &out, exp_arg(e, &args[p]), b->space, false);
    } else {
      list_push(&out, exp_new(e, b));
    }
  }
  TokList res = {0};
  for (Tok *t = out.head, *next; t; t = next) {
    next = t->next;
    if (t->kind == TK_PLACEMARKER) continue;
    t->hide = hide_union(e->t->a, t->hide, hs);
    list_push(&res, t);
  }
  return res.head;
}

// 6.10.3p4: as many arguments as parameters ("()" is one empty argument of a one-parameter
// macro); a variadic macro needs the named ones, and its variable part may be left out.
static Arg *exp_check_count(Exp *e, const Macro *m, Arg *args, int *n, int *cap) {
  int want = m->nparams;
  if ((*n == 0 && want == 1) || (m->variadic && *n == want - 1)) {
    args = grow(e->t->a, args, *n, cap, sizeof *args);
    args[(*n)++] = (Arg){0};
  }
  if (*n == want || (m->variadic && *n > want)) return args;
  const char *at_least = m->variadic ? "at least " : "";
  macro_error(e->t, e->loc, NULL, "macro '%s' takes %s%d argument%s, but %d %s given", m->name,
              at_least, want - m->variadic, want - m->variadic == 1 ? "" : "s", *n,
              *n == 1 ? "was" : "were");
}

// The arguments after '(' (6.10.3p11): split at top-level commas, except that the commas
// of the variable part stay in __VA_ARGS__.  Returns the matching ')', or NULL if none.
static Tok *exp_collect(Exp *e, const Macro *m, Tok *lparen, Arg **out) {
  Arg *args = NULL;
  int n = 0, cap = 0, depth = 0;
  bool any = false;
  TokList cur = {0};
  Tok *t = lparen->next;
  for (; t && !(depth == 0 && tok_is(t, ")")); t = t->next) {
    any = true;
    if (depth == 0 && tok_is(t, ",") && !(m->variadic && n == m->nparams - 1)) {
      args = grow(e->t->a, args, n, &cap, sizeof *args);
      args[n++] = (Arg){cur.head, NULL, false};
      cur = (TokList){0};
      continue;
    }
    depth += tok_is(t, "(") - tok_is(t, ")");
    list_push(&cur, exp_new(e, t));
  }
  if (!t) return NULL;
  if (any) {
    args = grow(e->t->a, args, n, &cap, sizeof *args);
    args[n++] = (Arg){cur.head, NULL, false};
  }
  *out = exp_check_count(e, m, args, &n, &cap);
  return t;
}

// Replaces the use of m at *tok by its expansion, followed by the tokens after the use.
// The expansion's hide set is the use's plus m (for a call: the intersection of the name's
// and the ')''s).  False for a function-like macro with no argument list.
static bool exp_invoke(Exp *e, const Macro *m, Tok **tok) {
  Arena *a = e->t->a;
  Tok *name = *tok, *rest = name->next;
  Arg *args = NULL;
  Hide *hs = name->hide;
  if (m->function_like) {
    Tok *rparen = tok_is(name->next, "(") ? exp_collect(e, m, name->next, &args) : NULL;
    if (!rparen) return false;
    rest = rparen->next;
    hs = hide_inter(a, name->hide, rparen->hide);
  }
  Tok *body = exp_subst(e, m, args, hide_add(a, hs, m->name));
  if (!body) {
    *tok = rest;
    return true;
  }
  body->space = name->space;
  Tok *last = body;
  while (last->next) last = last->next;
  last->next = rest;
  *tok = body;
  return true;
}

// Rescanning (6.10.3.4): the list is read left to right and every macro use not in its
// token's hide set is replaced, the expansion being read again with what follows.
static Tok *exp_list(Exp *e, Tok *tok) {
  TokList out = {0};
  while (tok) {
    Macro *m = NULL;
    if (tok->kind == TK_IDENT && !hide_has(tok->hide, tok->text))
      m = table_lookup(e->t, tok->text, e->at);
    if (m && exp_invoke(e, m, &tok)) continue;
    Tok *next = tok->next;
    list_push(&out, tok);
    tok = next;
  }
  return out.head;
}

// ---- #if expressions (C11 6.10.1) ----

typedef struct {
  uint64_t v;
  bool is_unsigned;
} PPVal;

typedef struct {
  MacroTable *t;
  Tok *tok; // the next token
  Loc loc;  // the directive
} Ev;

static PPVal ev_int(bool b) {
  return (PPVal){b, false};
}

static PPVal ev_cond(Ev *v, bool eval);

static int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// integer-constant (6.4.4.1) with its u and l/ll suffixes, and gcc's 0b; too large for
// intmax_t means unsigned.
static PPVal ev_number(Ev *v, const Tok *t) {
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
  for (int d; (d = digit_value(*p)) >= 0 && (unsigned)d < base; p++) {
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
  return (PPVal){x, u || x > INT64_MAX};
}

// One character of a character constant, escape sequences included (6.4.4.4).
static uint64_t ev_escape(const char **pp) {
  const char *p = *pp;
  uint64_t c = (unsigned char)*p++;
  if (c == '\\' && *p) {
    c = (unsigned char)*p++;
    const char *from = "ntrabfve", *to = "\n\t\r\a\b\f\v\033";
    const char *k = strchr(from, (int)c);
    if (k && c) c = (unsigned char)to[k - from];
    for (int d; c == 'x' && (d = digit_value(*p)) >= 0; p++) c = (c == 'x' ? 0 : c) * 16 + d;
    if (c >= '0' && c <= '7') {
      c -= '0';
      for (int i = 0; i < 2 && *p >= '0' && *p <= '7'; i++) c = c * 8 + (uint64_t)(*p++ - '0');
    }
  }
  *pp = p;
  return c;
}

// character-constant: an int; a plain one of one character is a (signed) char.
static PPVal ev_char(const Tok *t) {
  const char *q = strchr(t->text, '\''), *p = q + 1;
  uint64_t x = 0;
  int n = 0;
  for (; *p && *p != '\''; n++) x = (q == t->text ? x << 8 : 0) | ev_escape(&p);
  if (q == t->text && n == 1) x = (uint64_t)(int64_t)(signed char)(unsigned char)x;
  return (PPVal){x, false};
}

static void ev_expect(Ev *v, const char *punct) {
  if (!tok_is(v->tok, punct))
    macro_error(v->t, v->loc, NULL, "expected '%s' in #if expression", punct);
  v->tok = v->tok->next;
}

// An identifier left after expansion is 0 (6.10.1p4).  Leniently, so is an unknown
// built-in applied to arguments (__has_include(...), __has_attribute(...)).
static PPVal ev_ident(Ev *v) {
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
static PPVal ev_primary(Ev *v, bool eval) {
  Tok *t = v->tok;
  if (!t) macro_error(v->t, v->loc, NULL, "#if expression ends too early");
  v->tok = t->next;
  if (tok_is(t, "(")) {
    PPVal x = ev_cond(v, eval);
    ev_expect(v, ")");
    return x;
  }
  if (t->kind == TK_NUMBER) return ev_number(v, t);
  if (t->kind == TK_CHAR) return ev_char(t);
  if (t->kind == TK_IDENT) return ev_ident(v);
  macro_error(v->t, v->loc, NULL, "'%s' is not valid in a #if expression", t->text);
}

// unary: ('+' | '-' | '~' | '!') unary | primary
static PPVal ev_unary(Ev *v, bool eval) {
  Tok *t = v->tok;
  if (!t || t->kind != TK_PUNCT || t->text[1] || !strchr("+-~!", t->text[0]))
    return ev_primary(v, eval);
  v->tok = t->next;
  PPVal x = ev_unary(v, eval);
  switch (t->text[0]) {
  case '-': x.v = 0 - x.v; return x;
  case '~': x.v = ~x.v; return x;
  case '!': return ev_int(x.v == 0);
  }
  return x;
}

// << and >> have the left operand's type; a negative or too large count gives 0 (-1 for a
// negative value shifted right), where C leaves it undefined.
static PPVal ev_shift(PPVal l, PPVal r, bool left) {
  bool neg = !l.is_unsigned && (int64_t)l.v < 0;
  if ((!r.is_unsigned && (int64_t)r.v < 0) || r.v >= 64)
    return (PPVal){left || !neg ? 0 : UINT64_MAX, l.is_unsigned};
  if (left) return (PPVal){l.v << r.v, l.is_unsigned};
  return (PPVal){neg ? ~(~l.v >> r.v) : l.v >> r.v, l.is_unsigned};
}

// / and %: division by zero is an error where evaluated; INTMAX_MIN / -1 wraps.
static PPVal ev_div(Ev *v, PPVal l, PPVal r, bool rem, bool eval) {
  if (r.v == 0) {
    if (eval) macro_error(v->t, v->loc, NULL, "division by zero in #if");
    return ev_int(0);
  }
  if (l.is_unsigned || r.is_unsigned) return (PPVal){rem ? l.v % r.v : l.v / r.v, true};
  int64_t a = (int64_t)l.v, b = (int64_t)r.v;
  if (a == INT64_MIN && b == -1) return (PPVal){rem ? 0 : l.v, false};
  return (PPVal){(uint64_t)(rem ? a % b : a / b), false};
}

static bool ev_less(PPVal l, PPVal r, bool u) {
  return u ? l.v < r.v : (int64_t)l.v < (int64_t)r.v;
}

// l op r with the usual arithmetic conversions on intmax_t and uintmax_t (6.10.1p4).
static PPVal ev_apply(Ev *v, const char *op, PPVal l, PPVal r, bool eval) {
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
  case '|': return (PPVal){l.v | r.v, u};
  case '^': return (PPVal){l.v ^ r.v, u};
  case '&': return (PPVal){l.v & r.v, u};
  case '+': return (PPVal){l.v + r.v, u};
  case '-': return (PPVal){l.v - r.v, u};
  case '*': return (PPVal){l.v * r.v, u};
  }
  return ev_div(v, l, r, op[0] == '%', eval);
}

static const struct {
  const char *op;
  int prec;
} ev_ops[] = {
    {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5},  {"==", 6}, {"!=", 6},
    {"<", 7},  {">", 7},  {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9},
    {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10},
};

static int ev_prec(const Tok *t) {
  for (size_t i = 0; t && t->kind == TK_PUNCT && i < sizeof ev_ops / sizeof *ev_ops; i++)
    if (strcmp(t->text, ev_ops[i].op) == 0) return ev_ops[i].prec;
  return 0;
}

// The binary operators of 6.5.5-6.5.14 by precedence climbing; the right operand of && and
// || is parsed but not evaluated when the left one decides.
static PPVal ev_binary(Ev *v, int min_prec, bool eval) {
  PPVal l = ev_unary(v, eval);
  for (int prec; (prec = ev_prec(v->tok)) >= min_prec;) {
    const char *op = v->tok->text;
    v->tok = v->tok->next;
    bool reval = eval;
    if (!strcmp(op, "&&")) reval = eval && l.v != 0;
    if (!strcmp(op, "||")) reval = eval && l.v == 0;
    PPVal r = ev_binary(v, prec + 1, reval);
    l = ev_apply(v, op, l, r, reval);
  }
  return l;
}

// conditional: logical-or ('?' expression ':' conditional)?
static PPVal ev_cond(Ev *v, bool eval) {
  PPVal c = ev_binary(v, 1, eval);
  if (!tok_is(v->tok, "?")) return c;
  v->tok = v->tok->next;
  PPVal x = ev_cond(v, eval && c.v != 0);
  ev_expect(v, ":");
  PPVal y = ev_cond(v, eval && c.v == 0);
  PPVal r = c.v ? x : y;
  r.is_unsigned = x.is_unsigned || y.is_unsigned;
  return r;
}

// 'defined' identifier | 'defined' '(' identifier ')' becomes 1 or 0 before expansion.
static Tok *ev_defined(MacroTable *t, Tok *toks, Loc loc) {
  TokList out = {0};
  for (Tok *tok = toks, *next; tok; tok = next) {
    next = tok->next;
    if (tok->kind == TK_IDENT && strcmp(tok->text, "defined") == 0) {
      bool paren = tok_is(next, "(");
      Tok *name = paren ? next->next : next;
      if (!name || name->kind != TK_IDENT)
        macro_error(t, loc, NULL, "operator 'defined' requires an identifier");
      next = name->next;
      if (paren && !tok_is(next, ")")) macro_error(t, loc, NULL, "missing ')' after 'defined'");
      next = paren ? next->next : next;
      tok->kind = TK_NUMBER;
      tok->text = table_lookup(t, name->text, UINT32_MAX) ? "1" : "0";
    }
    list_push(&out, tok);
  }
  return out.head;
}

// #if and #elif: 'defined', then macro replacement, then the constant expression.
static bool ev_if(MacroTable *t, Tok *toks, Loc loc) {
  Exp e = {t, UINT32_MAX, loc, 0};
  Ev v = {t, exp_list(&e, ev_defined(t, toks, loc)), loc};
  if (!v.tok) macro_error(t, loc, NULL, "#if with no expression");
  PPVal x = ev_cond(&v, true);
  if (v.tok) macro_error(t, loc, NULL, "unexpected '%s' in #if expression", v.tok->text);
  return x.v != 0;
}

// ---- files ----

// Translation phase 2: drops every backslash-newline, remembering where each character was;
// and the line starts, for locations.
static void file_prepare(Arena *a, File *f) {
  const char *s = f->src.text;
  size_t n = f->src.len, k = 0;
  f->text = arena_alloc(a, n + 1);
  f->phys = ARENA_ARRAY(a, uint32_t, n + 1);
  for (size_t i = 0; i < n;) {
    size_t splice = s[i] != '\\' ? 0 : i + 1 < n && s[i + 1] == '\n' ? 2
                                     : i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n' ? 3 : 0;
    if (splice) {
      i += splice;
      continue;
    }
    f->phys[k] = (uint32_t)i;
    f->text[k++] = s[i++];
  }
  f->phys[k] = (uint32_t)n;
  f->len = k;
  f->lines = ARENA_ARRAY(a, uint32_t, n + 1);
  f->lines[f->nlines++] = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '\n') f->lines[f->nlines++] = (uint32_t)(i + 1);
}

// The location of text[i] (1-based line and byte column).
static Loc file_loc(const File *f, size_t i) {
  uint32_t off = f->phys[i];
  size_t lo = 0, hi = f->nlines; // the last line start <= off is in [lo, hi)
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (f->lines[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  return (Loc){f->path, (uint32_t)lo + 1, off - f->lines[lo] + 1};
}

// The contents of path, or NULL when it cannot be read (missing, a directory).
static char *file_read(Arena *a, const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  size_t cap = 1 << 16, n = 0, got;
  char *data = malloc(cap);
  while (data && (got = fread(data + n, 1, cap - n, fp)) > 0) {
    n += got;
    char *more = n < cap ? data : realloc(data, cap *= 2);
    if (!more) free(data);
    data = more;
  }
  bool ok = data && !ferror(fp);
  fclose(fp);
  char *text = ok ? arena_strndup(a, data, n) : NULL;
  free(data);
  *len = n;
  return text;
}

// The File of path: one already read if it has the same canonical path, else read now.
static File *file_open(MacroTable *t, const char *path) {
  char *real = realpath(path, NULL);
  if (!real) return NULL;
  File *f = t->files;
  while (f && strcmp(f->real, real) != 0) f = f->next;
  if (!f) {
    size_t len;
    char *text = file_read(t->a, path, &len);
    if (text) {
      f = ARENA_NEW(t->a, File);
      f->path = arena_strdup(t->a, path);
      f->real = arena_strdup(t->a, real);
      f->src = (Src){f->path, text, len};
      file_prepare(t->a, f);
      f->next = t->files;
      t->files = f;
    }
  }
  free(real);
  return f;
}

// #include "name" (6.10.2p3 leaves the places to the implementation; as gcc): the directory
// of the including file, then the -I directories in order.
static File *file_find(MacroTable *t, const File *from, const char *name) {
  if (name[0] == '/') return file_open(t, name);
  const char *slash = strrchr(from->path, '/');
  File *f = file_open(t, slash ? arena_printf(t->a, "%.*s/%s", (int)(slash - from->path),
                                              from->path, name)
                               : name);
  for (int i = 0; !f && i < t->nincdirs; i++) {
    const char *dir = t->incdirs[i];
    size_t n = strlen(dir);
    f = file_open(t, arena_printf(t->a, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name));
  }
  return f;
}

// ---- reading a file line by line (6.10p2: a directive is a line whose first token is '#') ----

// One open #if (6.10.1p6): a branch is active when the region around it is, no earlier
// branch was, and its condition holds; conditions are not evaluated in inactive regions.
typedef struct {
  size_t hash;      // text index of its '#'
  const char *name; // "if", "ifdef", "ifndef"
  bool outer;       // the region around it is active
  bool taken;       // some branch has been active
  bool active;      // the current branch is
  bool seen_else;
} Cond;

typedef struct {
  MacroTable *t;
  File *f;
  uint32_t inc_pos; // main-file offset of the #include being read; UINT32_MAX in the main file
  int depth;
  Cond *conds;
  int nconds, capconds;
} Scan;

static void scan_file(MacroTable *t, File *f, uint32_t inc_pos, int depth);

static bool scan_active(const Scan *s) {
  return s->nconds == 0 || s->conds[s->nconds - 1].active;
}

// Where a directive at text[hash] takes effect in the main file.
static uint32_t scan_pos(const Scan *s, size_t hash) {
  return s->inc_pos != UINT32_MAX ? s->inc_pos : s->f->phys[hash];
}

// Spaces over text[line..end) of the main file, the backslash-newlines before it included;
// newlines stay.
static void scan_blank(const Scan *s, size_t line, size_t end) {
  const File *f = s->f;
  if (!f->active) return;
  for (uint32_t k = line ? f->phys[line - 1] + 1 : 0; k < f->phys[end]; k++)
    if (f->active[k] != '\n' && f->active[k] != '\r') f->active[k] = ' ';
}

// Whitespace and comments from text[i], stopping at a newline outside a comment.
static size_t scan_blank_line(const File *f, size_t i) {
  const char *s = f->text;
  size_t n = f->len;
  while (i < n && s[i] != '\n') {
    if (is_space(s[i]))
      i++;
    else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*')
      i = comment_end(s, n, i + 2);
    else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
      while (i < n && s[i] != '\n') i++;
    else
      break;
  }
  return i;
}

// The end of the line from text[i]: the next newline outside comments (a literal ends at
// the end of its line at the latest).
static size_t scan_line_end(const File *f, size_t i) {
  const char *s = f->text;
  size_t n = f->len;
  while (i < n && s[i] != '\n') {
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '*')
      i = comment_end(s, n, i + 2);
    else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
      while (i < n && s[i] != '\n') i++;
    else if (s[i] == '"' || s[i] == '\'')
      i += tok_quoted(s + i, n - i);
    else
      i++;
  }
  return i;
}

static bool name_is(const char *name, const char *a, const char *b, const char *c) {
  return !strcmp(name, a) || (b && !strcmp(name, b)) || (c && !strcmp(name, c));
}

// The condition of #if, #ifdef, #ifndef, #elif, #elifdef, #elifndef.
static bool cond_test(Scan *s, const char *name, Tok *rest, size_t hash) {
  Loc loc = file_loc(s->f, hash);
  if (name_is(name, "if", "elif", NULL)) return ev_if(s->t, rest, loc);
  if (!rest || rest->kind != TK_IDENT)
    macro_error(s->t, loc, "write the name of a macro after it", "#%s without a macro name", name);
  bool def = table_lookup(s->t, rest->text, UINT32_MAX) != NULL;
  return strstr(name, "ndef") ? !def : def;
}

// The open conditional for #elif, #else or #endif.
static Cond *cond_top(Scan *s, const char *name, size_t hash, bool after_else) {
  Loc loc = file_loc(s->f, hash);
  if (s->nconds == 0) macro_error(s->t, loc, NULL, "#%s without #if", name);
  Cond *c = &s->conds[s->nconds - 1];
  if (after_else && c->seen_else) macro_error(s->t, loc, NULL, "#%s after #else", name);
  return c;
}

// if-section (6.10.1): returns false if name is not a conditional directive.
static bool dir_conditional(Scan *s, const char *name, Tok *rest, size_t hash) {
  if (name_is(name, "if", "ifdef", "ifndef")) {
    bool outer = scan_active(s), v = outer && cond_test(s, name, rest, hash);
    s->conds = grow(s->t->a, s->conds, s->nconds, &s->capconds, sizeof *s->conds);
    s->conds[s->nconds++] = (Cond){hash, name, outer, v, v, false};
  } else if (name_is(name, "elif", "elifdef", "elifndef")) {
    Cond *c = cond_top(s, name, hash, true);
    c->active = c->outer && !c->taken && cond_test(s, name, rest, hash);
    c->taken |= c->active;
  } else if (!strcmp(name, "else")) {
    Cond *c = cond_top(s, name, hash, true);
    c->active = c->outer && !c->taken;
    c->taken = c->seen_else = true;
  } else if (!strcmp(name, "endif")) {
    cond_top(s, name, hash, false);
    s->nconds--;
  } else {
    return false;
  }
  return true;
}

// control-line: 'include' ('"' q-chars '"' | '<' h-chars '>' | pp-tokens that expand to one)
static void dir_include(Scan *s, Tok *rest, size_t hash) {
  MacroTable *t = s->t;
  Loc loc = file_loc(s->f, hash);
  if (rest && rest->kind != TK_STRING && !tok_is(rest, "<")) {
    Exp e = {t, UINT32_MAX, loc, 0};
    rest = exp_list(&e, rest);
  }
  if (tok_is(rest, "<")) return; // a system header: not read
  size_t n = rest && rest->kind == TK_STRING ? strlen(rest->text) : 0;
  if (n < 3 || rest->text[0] != '"' || rest->text[n - 1] != '"')
    macro_error(t, loc, NULL, "#include expects \"FILENAME\" or <FILENAME>");
  File *f = file_find(t, s->f, arena_strndup(t->a, rest->text + 1, n - 2));
  if (!f || f->once) return; // a missing file is left to the C compiler
  if (s->depth + 1 >= MACRO_MAX_DEPTH)
    macro_error(t, loc, "guard the header with #ifndef or #pragma once", "#include nested too deeply");
  if (!f->listed) {
    t->deps = grow(t->a, t->deps, t->ndeps, &t->capdeps, sizeof *t->deps);
    t->deps[t->ndeps++] = f;
    f->listed = true;
  }
  scan_file(t, f, scan_pos(s, hash), s->depth + 1);
  t->cur = s->f;
}

// The directives of an active region other than the conditionals; unknown ones, #line and
// the rest of #pragma are left to the C compiler.
static void dir_active(Scan *s, const char *name, Tok *rest, size_t hash) {
  MacroTable *t = s->t;
  if (!strcmp(name, "define")) {
    Macro *m = define_parse(t, rest, file_loc(s->f, hash));
    table_set(t, m->name, m, scan_pos(s, hash));
  } else if (!strcmp(name, "undef")) {
    if (!rest || rest->kind != TK_IDENT)
      macro_error(t, file_loc(s->f, hash), NULL, "#undef without a macro name");
    table_set(t, rest->text, NULL, scan_pos(s, hash));
  } else if (!strcmp(name, "include")) {
    dir_include(s, rest, hash);
  } else if (!strcmp(name, "error")) {
    macro_error(t, file_loc(s->f, hash), NULL, "#error %s", tok_join(t->a, rest));
  } else if (!strcmp(name, "pragma") && rest && rest->kind == TK_IDENT &&
             !strcmp(rest->text, "once")) {
    s->f->once = true;
  }
}

// The directive text[hash..end) on the line from text[line].
static void scan_directive(Scan *s, size_t line, size_t hash, size_t end) {
  Tok *toks = tok_list(s->t->a, s->f->text + hash + 1, end - hash - 1);
  const char *name = toks && toks->kind == TK_IDENT ? toks->text : "";
  Tok *rest = toks ? toks->next : NULL;
  if (dir_conditional(s, name, rest, hash) || !scan_active(s))
    scan_blank(s, line, end);
  else
    dir_active(s, name, rest, hash);
}

// Reads f, whose directives take effect at inc_pos of the main file (UINT32_MAX: f is the
// main file, each at its own offset).
static void scan_file(MacroTable *t, File *f, uint32_t inc_pos, int depth) {
  Scan s = {t, f, inc_pos, depth, NULL, 0, 0};
  t->cur = f;
  size_t i = 0;
  while (i < f->len) {
    size_t first = scan_blank_line(f, i);
    size_t end = scan_line_end(f, first);
    if (first < f->len && f->text[first] == '#')
      scan_directive(&s, i, first, end);
    else if (!scan_active(&s))
      scan_blank(&s, i, end);
    i = end < f->len ? end + 1 : end;
  }
  if (s.nconds) {
    Cond *c = &s.conds[s.nconds - 1];
    macro_error(t, file_loc(f, c->hash), "add the missing #endif", "unterminated #%s", c->name);
  }
}

// ---- the interface ----

// The C11 compiler's own macros that portable code tests (6.10.8.1).
static const char *const macro_predefined[] = {"__STDC__", "__STDC_HOSTED__",
                                               "__STDC_VERSION__=201112L"};

MacroTable *macro_table_new(Arena *a, const Src *src, const char *const *defines, int ndefines,
                            const char *const *incdirs, int nincdirs) {
  MacroTable *t = ARENA_NEW(a, MacroTable);
  t->a = a;
  t->incdirs = ARENA_ARRAY(a, const char *, nincdirs > 0 ? nincdirs : 1);
  for (int i = 0; i < nincdirs; i++) t->incdirs[i] = arena_strdup(a, incdirs[i]);
  t->nincdirs = nincdirs;
  for (size_t i = 0; i < sizeof macro_predefined / sizeof *macro_predefined; i++)
    define_arg(t, macro_predefined[i]);
  for (int i = 0; i < ndefines; i++) define_arg(t, defines[i]);
  File *f = ARENA_NEW(a, File);
  f->path = src->path;
  f->src = *src;
  file_prepare(a, f);
  f->active = arena_strndup(a, src->text, src->len);
  t->main = f;
  scan_file(t, f, UINT32_MAX, 0);
  t->cur = NULL;
  return t;
}

char *macro_active_text(MacroTable *t) {
  return t->main->active;
}

// The use "name" or "name ( arg , ... )" as tokens.
static Tok *macro_use(MacroTable *t, const char *name, const char *const *args, int nargs,
                      bool call) {
  TokList l = {0};
  list_push(&l, &(Tok){TK_IDENT, false, arena_strdup(t->a, name), NULL, NULL});
  l.head = l.tail = ARENA_NEW(t->a, Tok);
  *l.head = (Tok){TK_IDENT, false, arena_strdup(t->a, name), NULL, NULL};
  if (!call) return l.head;
  list_push(&l, tok_list(t->a, "(", 1));
  for (int i = 0; i < nargs; i++) {
    if (i > 0) list_push(&l, tok_list(t->a, ",", 1));
    for (Tok *a = tok_list(t->a, args[i], strlen(args[i])), *next; a; a = next) {
      next = a->next;
      list_push(&l, a);
    }
  }
  list_push(&l, tok_list(t->a, ")", 1));
  return l.head;
}

const char *macro_expand(MacroTable *t, const char *name, const char *const *args, int nargs,
                         bool call, uint32_t at_byte, Loc use_loc) {
  Macro *m = table_lookup(t, name, at_byte);
  if (!m || (m->function_like && !call)) return NULL;
  Exp e = {t, at_byte, use_loc, 0};
  return tok_join(t->a, exp_list(&e, macro_use(t, name, args, nargs, m->function_like)));
}

bool macro_defined(MacroTable *t, const char *name, uint32_t at_byte, bool *function_like) {
  Macro *m = table_lookup(t, name, at_byte);
  if (function_like) *function_like = m && m->function_like;
  return m != NULL;
}

int macro_deps(const MacroTable *t, const char *const **paths) {
  const char **p = ARENA_ARRAY(t->a, const char *, t->ndeps > 0 ? t->ndeps : 1);
  for (int i = 0; i < t->ndeps; i++) p[i] = t->deps[i]->path;
  *paths = p;
  return t->ndeps;
}
