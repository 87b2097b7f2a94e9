// parser/macro.c: the preprocessor subset of parser/macro.h (C11 6.10): conditionals,
// #define/#undef with the offset where each takes effect, #include "file", and macro
// expansion with Prosser's hide sets (as chibicc's preprocess.c does it).
#define _XOPEN_SOURCE 700 // realpath
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "../ir/hash.h"

#define MACRO_MAX_DEPTH 200        // #include nesting, as gcc
#define MACRO_MAX_TOKENS (1 << 20) // tokens one expansion may create
#define MACRO_MAX_NESTING 256      // of parentheses and operators in #if

// ---- tokens ----

typedef enum {
  PP_IDENT,
  PP_NUMBER,
  PP_STRING,
  PP_CHAR,
  PP_PUNCT,
  PP_OTHER,
  PP_PLACEMARKER
} PpTokKind;

// A hide set: the macros whose expansion produced a token, which it must not invoke again.
typedef struct PpHide {
  const char *name;
  struct PpHide *next;
} PpHide;

typedef struct PpTok {
  PpTokKind kind;
  bool space; // whitespace before it
  const char *text;
  PpHide *hide;
  struct PpTok *next;
} PpTok;

typedef struct {
  PpTok *head, *tail;
} PpList;

static void tok_push(PpList *l, PpTok *t) {
  t->next = NULL;
  if (l->tail)
    l->tail->next = t;
  else
    l->head = t;
  l->tail = t;
}

// ---- the table ----

typedef struct PpMacro {
  const char *name;
  bool function_like, variadic;
  const char **params; // variadic: the last is __VA_ARGS__ (or the GNU name before "...")
  int nparams;
  PpTok *body;
} PpMacro;

// A #define (macro != NULL) or #undef, in force from byte pos of the main file on.
typedef struct PpVersion {
  uint32_t pos;
  PpMacro *macro;
  struct PpVersion *prev;
} PpVersion;

typedef struct {
  const char *name;
  PpVersion *newest;
  UT_hash_handle hh; // MacroTable.macros, by name
} PpEntry;

typedef struct PpFile {
  const char *path; // as opened (the main file: as named on the command line)
  const char *real; // canonical path: #include of the same file finds this File again
  Src src;
  char *text;     // src.text without its backslash-newlines (translation phase 2)
  uint32_t *phys; // phys[i]: offset in src.text of text[i]; phys[len] == src.len
  size_t len;
  uint32_t *lines; // offsets of the line starts in src.text
  size_t nlines;
  char *active; // the main file: the copy of src.text that gets blanked
  bool once;    // #pragma once seen
  bool listed;  // in deps
  UT_hash_handle hh; // MacroTable.files, by real
} PpFile;

struct MacroTable {
  Arena *a;
  PpFile *main;
  PpFile *cur; // the file being read, for diagnostics
  const char **incdirs;
  int nincdirs;
  PpEntry *macros; // every name defined or undefined (uthash)
  PpFile *files;   // every included file, by canonical path (uthash)
  PpFile **deps;
  int ndeps, capdeps;
  const char **dep_paths;
};

// Room for element n of an arena array of capacity *cap.
static void *pp_grow(Arena *a, void *p, int n, int *cap, size_t size) {
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

static bool pp_is_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static bool pp_is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

static bool pp_is_ident_char(unsigned char c) {
  return pp_is_ident_start(c) || pp_is_digit(c);
}

static bool pp_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The index just past the "*/" that closes a comment whose text starts at s[i].
static size_t pp_comment_end(const char *s, size_t n, size_t i) {
  for (; i + 1 < n; i++)
    if (s[i] == '*' && s[i + 1] == '/') return i + 2;
  return n;
}

// Length of the whitespace and comments at s[0..n).
static size_t tok_blank(const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (pp_is_space(s[i])) {
      i++;
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n')
        i++;
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
      i = pp_comment_end(s, n, i + 2);
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
    else if (pp_is_ident_char((unsigned char)c) || c == '.')
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
    "%:%:", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "*=",   "/=",  "%=",  "+=",  "-=", "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>", "%:",
};

// Length and kind of the preprocessing token at s[0..n), n > 0, longest match first.
static size_t tok_len(const char *s, size_t n, PpTokKind *kind) {
  unsigned char c = (unsigned char)s[0];
  if (pp_is_ident_start(c)) {
    size_t i = 1;
    while (i < n && pp_is_ident_char((unsigned char)s[i]))
      i++;
    if (i < n && (s[i] == '"' || s[i] == '\'') && tok_is_prefix(s, i)) {
      *kind = s[i] == '"' ? PP_STRING : PP_CHAR;
      return i + tok_quoted(s + i, n - i);
    }
    *kind = PP_IDENT;
    return i;
  }
  if (pp_is_digit(c) || (c == '.' && n > 1 && pp_is_digit((unsigned char)s[1]))) {
    *kind = PP_NUMBER;
    return tok_number(s, n);
  }
  if (c == '"' || c == '\'') {
    *kind = c == '"' ? PP_STRING : PP_CHAR;
    return tok_quoted(s, n);
  }
  for (size_t k = 0; k < sizeof tok_puncts / sizeof *tok_puncts; k++) {
    size_t len = strlen(tok_puncts[k]);
    if (len <= n && memcmp(s, tok_puncts[k], len) == 0) {
      *kind = PP_PUNCT;
      return len;
    }
  }
  *kind = c && strchr("[](){}.&*+-~!/%<>^|?:;=,#", c) ? PP_PUNCT : PP_OTHER;
  return 1;
}

// The tokens of s[0..n); comments are whitespace.
static PpTok *tok_list(Arena *a, const char *s, size_t n) {
  PpList l = {0};
  size_t i = 0;
  for (;;) {
    size_t blank = tok_blank(s + i, n - i);
    i += blank;
    if (i >= n) return l.head;
    PpTok *t = ARENA_NEW(a, PpTok);
    size_t len = tok_len(s + i, n - i, &t->kind);
    t->space = blank > 0;
    t->text = arena_strndup(a, s + i, len);
    tok_push(&l, t);
    i += len;
  }
}

static bool tok_is(const PpTok *t, const char *punct) {
  return t && t->kind == PP_PUNCT && strcmp(t->text, punct) == 0;
}

// Whether b written right after a would lex differently (merge, or open a comment).
static bool tok_would_merge(Arena *a, const PpTok *x, const PpTok *y) {
  size_t lx = strlen(x->text), ly = strlen(y->text);
  if (lx == 0 || ly == 0) return false;
  if (x->text[lx - 1] == '/' && (y->text[0] == '/' || y->text[0] == '*')) return true;
  char *s = arena_printf(a, "%s%s", x->text, y->text);
  PpTokKind kind;
  return tok_len(s, lx + ly, &kind) != lx;
}

// The text of a token list: a space where the source had whitespace, or where two tokens
// would otherwise run together.
static char *tok_join(Arena *a, const PpTok *t) {
  Buf b = {0};
  buf_puts(&b, "");
  for (const PpTok *prev = NULL; t; prev = t, t = t->next) {
    if (prev && (t->space || tok_would_merge(a, prev, t))) buf_puts(&b, " ");
    buf_puts(&b, t->text);
  }
  char *s = arena_strndup(a, b.data, b.len);
  buf_free(&b);
  return s;
}

// ---- hide sets ----

static bool hide_has(const PpHide *h, const char *name) {
  for (; h; h = h->next)
    if (strcmp(h->name, name) == 0) return true;
  return false;
}

static PpHide *hide_add(Arena *a, PpHide *h, const char *name) {
  if (hide_has(h, name)) return h;
  PpHide *n = ARENA_NEW(a, PpHide);
  n->name = name;
  n->next = h;
  return n;
}

// x | y; shares y's nodes (a body token's hide set is empty, so usually it is y).
static PpHide *hide_union(Arena *a, const PpHide *x, PpHide *y) {
  for (; x; x = x->next)
    y = hide_add(a, y, x->name);
  return y;
}

static PpHide *hide_inter(Arena *a, const PpHide *x, const PpHide *y) {
  PpHide *r = NULL;
  for (; x; x = x->next)
    if (hide_has(y, x->name)) r = hide_add(a, r, x->name);
  return r;
}

// ---- macro table: name -> versions, newest first ----

// The entry of name; created when create is set, else NULL when absent.
static PpEntry *table_entry(MacroTable *t, const char *name, bool create) {
  PpEntry *e;
  HASH_FIND_STR(t->macros, name, e);
  if (e || !create) return e;
  e = ARENA_NEW(t->a, PpEntry);
  e->name = arena_strdup(t->a, name);
  TABLE_ADD(t->a, t->macros, name, e);
  return e;
}

// Records a #define (m) or #undef (m == NULL) of name, in force from pos on.
static void table_set(MacroTable *t, const char *name, PpMacro *m, uint32_t pos) {
  PpEntry *e = table_entry(t, name, true);
  PpVersion *v = ARENA_NEW(t->a, PpVersion);
  v->pos = pos;
  v->macro = m;
  v->prev = e->newest;
  e->newest = v;
}

// The macro name at byte `at` of the main file (UINT32_MAX: the newest definition).
static PpMacro *table_lookup(MacroTable *t, const char *name, uint32_t at) {
  PpEntry *e = table_entry(t, name, false);
  for (PpVersion *v = e ? e->newest : NULL; v; v = v->prev)
    if (v->pos <= at) return v->macro;
  return NULL;
}

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
static PpMacro *define_parse(MacroTable *t, PpTok *toks, Loc loc) {
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
static void define_arg(MacroTable *t, const char *arg) {
  const char *eq = strchr(arg, '=');
  char *text = eq ? arena_printf(t->a, "%.*s %s", (int)(eq - arg), arg, eq + 1)
                  : arena_printf(t->a, "%s 1", arg);
  Loc loc = {"<command line>", 0, 0};
  PpMacro *m = define_parse(t, tok_list(t->a, text, strlen(text)), loc);
  table_set(t, m->name, m, 0);
}

// ---- expansion (C11 6.10.3.1-4) ----

typedef struct {
  PpTok *raw;      // as written
  PpTok *expanded; // fully macro-replaced, made on first use
  bool done;
} PpArg;

typedef struct {
  MacroTable *t;
  uint32_t at; // the definitions in force at this byte of the main file
  Loc loc;     // the use, for errors
  size_t ntoks;
} PpExp;

static PpTok *exp_list(PpExp *e, PpTok *tok);

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
  Buf b = {0};
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
static PpTok *exp_list(PpExp *e, PpTok *tok) {
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
static bool ev_if(MacroTable *t, PpTok *toks, Loc loc) {
  PpExp e = {t, UINT32_MAX, loc, 0};
  PpEv v = {t, exp_list(&e, ev_defined(t, toks, loc)), loc, 0};
  if (!v.tok) macro_error(t, loc, NULL, "#if with no expression");
  PpVal x = ev_cond(&v, true);
  if (v.tok) macro_error(t, loc, NULL, "unexpected '%s' in #if expression", v.tok->text);
  return x.v != 0;
}

// ---- files ----

// Translation phase 2: drops every backslash-newline, remembering where each character was;
// and the line starts, for locations.
static void pp_file_prepare(Arena *a, PpFile *f) {
  const char *s = f->src.text;
  size_t n = f->src.len, k = 0;
  f->text = arena_alloc(a, n + 1);
  f->phys = ARENA_ARRAY(a, uint32_t, n + 1);
  for (size_t i = 0; i < n;) {
    size_t splice = s[i] != '\\'                                        ? 0
                    : i + 1 < n && s[i + 1] == '\n'                     ? 2
                    : i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n' ? 3
                                                                        : 0;
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
static Loc pp_file_loc(const PpFile *f, size_t i) {
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

// The File of path: one already read if it has the same canonical path, else read now.
// NULL when there is no file at path, or a directory (as in gcc, the search goes on); one
// that is there but cannot be read (no permission, a device or fifo, too big) is an error.
static PpFile *pp_file_open(MacroTable *t, const char *path, Loc loc) {
  char *real = realpath(path, NULL);
  if (!real && (errno == ENOENT || errno == ENOTDIR)) return NULL;
  if (!real) macro_error(t, loc, NULL, "cannot read \"%s\": %s", path, strerror(errno));
  PpFile *f;
  HASH_FIND_STR(t->files, real, f);
  if (!f) {
    size_t len;
    int err;
    char *text = src_read(t->a, path, &len, &err);
    if (!text) {
      free(real);
      if (err == EISDIR) return NULL;
      macro_error(t, loc, NULL, "cannot read \"%s\": %s", path, src_error(err));
    }
    f = ARENA_NEW(t->a, PpFile);
    f->path = arena_strdup(t->a, path);
    f->real = arena_strdup(t->a, real);
    f->src = (Src){.path = f->path, .text = text, .len = len};
    pp_file_prepare(t->a, f);
    TABLE_ADD(t->a, t->files, real, f);
  }
  free(real);
  return f;
}

// #include "name" (6.10.2p3 leaves the places to the implementation; as gcc): the directory
// of the including file, then the -I directories in order.
// A header found nowhere is an error at loc, as in a C compiler (language.md §6).
static PpFile *pp_file_find(MacroTable *t, const PpFile *from, const char *name, Loc loc) {
  PpFile *f;
  if (name[0] == '/') {
    f = pp_file_open(t, name, loc);
  } else {
    const char *slash = strrchr(from->path, '/');
    f = pp_file_open(t, slash ? arena_printf(t->a, "%.*s/%s", (int)(slash - from->path),
                                             from->path, name)
                              : name,
                     loc);
    for (int i = 0; !f && i < t->nincdirs; i++) {
      const char *dir = t->incdirs[i];
      size_t n = strlen(dir);
      f = pp_file_open(
          t, arena_printf(t->a, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name), loc);
    }
  }
  if (!f)
    macro_error(t, loc,
                name[0] == '/' ? NULL
                               : "headers are looked for beside the including file, then in "
                                 "the -I directories: add one with -I DIR",
                "cannot find \"%s\"", name);
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
} PpCond;

typedef struct {
  MacroTable *t;
  PpFile *f;
  uint32_t inc_pos; // main-file offset of the #include being read; UINT32_MAX in the main file
  int depth;
  PpCond *conds;
  int nconds, capconds;
} PpScan;

static void scan_file(MacroTable *t, PpFile *f, uint32_t inc_pos, int depth);

static bool scan_active(const PpScan *s) {
  return s->nconds == 0 || s->conds[s->nconds - 1].active;
}

// Where a directive at text[hash] takes effect in the main file.
static uint32_t scan_pos(const PpScan *s, size_t hash) {
  return s->inc_pos != UINT32_MAX ? s->inc_pos : s->f->phys[hash];
}

// Spaces over text[line..end) of the main file, the backslash-newlines before it included;
// newlines stay.
static void scan_blank(const PpScan *s, size_t line, size_t end) {
  const PpFile *f = s->f;
  if (!f->active) return;
  for (uint32_t k = line ? f->phys[line - 1] + 1 : 0; k < f->phys[end]; k++)
    if (f->active[k] != '\n' && f->active[k] != '\r') f->active[k] = ' ';
}

// Whitespace and comments from text[i], stopping at a newline outside a comment.
static size_t scan_blank_line(const PpFile *f, size_t i) {
  const char *s = f->text;
  size_t n = f->len;
  while (i < n && s[i] != '\n') {
    if (pp_is_space(s[i]))
      i++;
    else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*')
      i = pp_comment_end(s, n, i + 2);
    else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
      while (i < n && s[i] != '\n')
        i++;
    else
      break;
  }
  return i;
}

// The end of the line from text[i]: the next newline outside comments (a literal ends at
// the end of its line at the latest).
static size_t scan_line_end(const PpFile *f, size_t i) {
  const char *s = f->text;
  size_t n = f->len;
  while (i < n && s[i] != '\n') {
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '*')
      i = pp_comment_end(s, n, i + 2);
    else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
      while (i < n && s[i] != '\n')
        i++;
    else if (s[i] == '"' || s[i] == '\'')
      i += tok_quoted(s + i, n - i);
    else
      i++;
  }
  return i;
}

static bool dir_is(const char *name, const char *a, const char *b, const char *c) {
  return !strcmp(name, a) || (b && !strcmp(name, b)) || (c && !strcmp(name, c));
}

// The condition of #if, #ifdef, #ifndef, #elif, #elifdef, #elifndef.
static bool cond_test(PpScan *s, const char *name, PpTok *rest, size_t hash) {
  Loc loc = pp_file_loc(s->f, hash);
  if (dir_is(name, "if", "elif", NULL)) return ev_if(s->t, rest, loc);
  if (!rest || rest->kind != PP_IDENT)
    macro_error(s->t, loc, "write the name of a macro after it", "#%s without a macro name", name);
  bool def = table_lookup(s->t, rest->text, UINT32_MAX) != NULL;
  return strstr(name, "ndef") ? !def : def;
}

// The open conditional for #elif, #else or #endif.
static PpCond *cond_top(PpScan *s, const char *name, size_t hash, bool after_else) {
  Loc loc = pp_file_loc(s->f, hash);
  if (s->nconds == 0) macro_error(s->t, loc, NULL, "#%s without #if", name);
  PpCond *c = &s->conds[s->nconds - 1];
  if (after_else && c->seen_else) macro_error(s->t, loc, NULL, "#%s after #else", name);
  return c;
}

// if-section (6.10.1): returns false if name is not a conditional directive.
static bool dir_conditional(PpScan *s, const char *name, PpTok *rest, size_t hash) {
  if (dir_is(name, "if", "ifdef", "ifndef")) {
    bool outer = scan_active(s), v = outer && cond_test(s, name, rest, hash);
    s->conds = pp_grow(s->t->a, s->conds, s->nconds, &s->capconds, sizeof *s->conds);
    s->conds[s->nconds++] = (PpCond){hash, name, outer, v, v, false};
  } else if (dir_is(name, "elif", "elifdef", "elifndef")) {
    PpCond *c = cond_top(s, name, hash, true);
    c->active = c->outer && !c->taken && cond_test(s, name, rest, hash);
    c->taken |= c->active;
  } else if (!strcmp(name, "else")) {
    PpCond *c = cond_top(s, name, hash, true);
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
static void dir_include(PpScan *s, PpTok *rest, size_t hash) {
  MacroTable *t = s->t;
  Loc loc = pp_file_loc(s->f, hash);
  if (rest && rest->kind != PP_STRING && !tok_is(rest, "<")) {
    PpExp e = {t, UINT32_MAX, loc, 0};
    rest = exp_list(&e, rest);
  }
  if (tok_is(rest, "<")) return; // a system header: not read
  size_t n = rest && rest->kind == PP_STRING ? strlen(rest->text) : 0;
  if (n < 3 || rest->text[0] != '"' || rest->text[n - 1] != '"')
    macro_error(t, loc, NULL, "#include expects \"FILENAME\" or <FILENAME>");
  PpFile *f = pp_file_find(t, s->f, arena_strndup(t->a, rest->text + 1, n - 2), loc);
  if (f->once) return;
  if (s->depth + 1 >= MACRO_MAX_DEPTH)
    macro_error(t, loc, "guard the header with #ifndef or #pragma once",
                "#include nested too deeply");
  if (!f->listed) {
    t->deps = pp_grow(t->a, t->deps, t->ndeps, &t->capdeps, sizeof *t->deps);
    t->deps[t->ndeps++] = f;
    f->listed = true;
  }
  scan_file(t, f, scan_pos(s, hash), s->depth + 1);
  t->cur = s->f;
}

// The directives of an active region other than the conditionals; unknown ones, #line and
// the rest of #pragma are left to the C compiler.
static void dir_active(PpScan *s, const char *name, PpTok *rest, size_t hash) {
  MacroTable *t = s->t;
  if (!strcmp(name, "define")) {
    PpMacro *m = define_parse(t, rest, pp_file_loc(s->f, hash));
    table_set(t, m->name, m, scan_pos(s, hash));
  } else if (!strcmp(name, "undef")) {
    if (!rest || rest->kind != PP_IDENT)
      macro_error(t, pp_file_loc(s->f, hash), NULL, "#undef without a macro name");
    table_set(t, rest->text, NULL, scan_pos(s, hash));
  } else if (!strcmp(name, "include")) {
    dir_include(s, rest, hash);
  } else if (!strcmp(name, "error")) {
    macro_error(t, pp_file_loc(s->f, hash), NULL, "#error%s%s", rest ? " " : "",
                tok_join(t->a, rest));
  } else if (!strcmp(name, "pragma") && rest && rest->kind == PP_IDENT &&
             !strcmp(rest->text, "once")) {
    s->f->once = true;
  }
}

// The directive text[hash..end) on the line from text[line].
static void scan_directive(PpScan *s, size_t line, size_t hash, size_t end) {
  PpTok *toks = tok_list(s->t->a, s->f->text + hash + 1, end - hash - 1);
  const char *name = toks && toks->kind == PP_IDENT ? toks->text : "";
  PpTok *rest = toks ? toks->next : NULL;
  if (dir_conditional(s, name, rest, hash) || !scan_active(s))
    scan_blank(s, line, end);
  else
    dir_active(s, name, rest, hash);
}

// Reads f, whose directives take effect at inc_pos of the main file (UINT32_MAX: f is the
// main file, each at its own offset).
static void scan_file(MacroTable *t, PpFile *f, uint32_t inc_pos, int depth) {
  PpScan s = {t, f, inc_pos, depth, NULL, 0, 0};
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
    PpCond *c = &s.conds[s.nconds - 1];
    macro_error(t, pp_file_loc(f, c->hash), "add the missing #endif", "unterminated #%s", c->name);
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
  for (int i = 0; i < nincdirs; i++)
    t->incdirs[i] = arena_strdup(a, incdirs[i]);
  t->nincdirs = nincdirs;
  for (size_t i = 0; i < sizeof macro_predefined / sizeof *macro_predefined; i++)
    define_arg(t, macro_predefined[i]);
  for (int i = 0; i < ndefines; i++)
    define_arg(t, defines[i]);
  PpFile *f = ARENA_NEW(a, PpFile);
  f->path = src->path;
  f->src = *src;
  pp_file_prepare(a, f);
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
static PpTok *macro_use(MacroTable *t, const char *name, const char *const *args, int nargs,
                        bool call) {
  PpList l = {0};
  tok_push(&l, tok_list(t->a, name, strlen(name)));
  if (!call) return l.head;
  tok_push(&l, tok_list(t->a, "(", 1));
  for (int i = 0; i < nargs; i++) {
    if (i > 0) tok_push(&l, tok_list(t->a, ",", 1));
    for (PpTok *a = tok_list(t->a, args[i], strlen(args[i])), *next; a; a = next) {
      next = a->next;
      tok_push(&l, a);
    }
  }
  tok_push(&l, tok_list(t->a, ")", 1));
  return l.head;
}

const char *macro_expand(MacroTable *t, const char *name, const char *const *args, int nargs,
                         bool call, uint32_t at_byte, Loc use_loc) {
  PpMacro *m = table_lookup(t, name, at_byte);
  if (!m || (m->function_like && !call)) return NULL;
  PpExp e = {t, at_byte, use_loc, 0};
  return tok_join(t->a, exp_list(&e, macro_use(t, name, args, nargs, m->function_like)));
}

bool macro_defined(MacroTable *t, const char *name, uint32_t at_byte, bool *function_like) {
  PpMacro *m = table_lookup(t, name, at_byte);
  if (function_like) *function_like = m && m->function_like;
  return m != NULL;
}

int macro_deps(const MacroTable *t, const char *const **paths) {
  const char **p = ARENA_ARRAY(t->a, const char *, t->ndeps > 0 ? t->ndeps : 1);
  for (int i = 0; i < t->ndeps; i++)
    p[i] = t->deps[i]->path;
  *paths = p;
  return t->ndeps;
}
