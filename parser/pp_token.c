// parser/pp_token.c: the preprocessor's tokens (C11 6.4), hide sets, and its table of macro
// definitions by name (newest first).  The bottom of the preprocessor (parser/pp.h).
#define _XOPEN_SOURCE 700 // realpath
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pp.h"

void *pp_grow(Arena *a, void *p, int n, int *cap, size_t size) {
  if (n < *cap) return p;
  int ncap = *cap ? 2 * *cap : 8;
  void *q = arena_alloc(a, (size_t)ncap * size);
  if (n) memcpy(q, p, (size_t)n * size);
  *cap = ncap;
  return q;
}

void macro_error(MacroTable *t, Loc loc, const char *hint, const char *fmt, ...) {
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

bool pp_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The index just past the "*/" that closes a comment whose text starts at s[i].
size_t pp_comment_end(const char *s, size_t n, size_t i) {
  for (; i + 1 < n; i++)
    if (s[i] == '*' && s[i + 1] == '/') return i + 2;
  return n;
}

// Comments become blanks (newlines kept, so every byte keeps its line and column), string and
// character literals are left alone: the text that tree-sitter parses and the lowering reads,
// so that a comment may stand wherever C allows one (`else // why`, `#pragma ... // why`).
void pp_blank_comments(char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (s[i] == '"' || s[i] == '\'') {
      i += tok_quoted(s + i, n - i);
    } else if (s[i] == '/' && i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '*')) {
      bool line = s[i + 1] == '/';
      size_t end = line ? i + 2 : pp_comment_end(s, n, i + 2);
      while (line && end < n && (s[end] != '\n' || s[end - 1] == '\\')) end++; // (a \ continues it)
      for (size_t k = i; k < end; k++)
        if (s[k] != '\n' && s[k] != '\r') s[k] = ' ';
      i = end;
    } else {
      i++;
    }
  }
}

// Length of the whitespace and comments at s[0..n).
size_t tok_blank(const char *s, size_t n) {
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
size_t tok_quoted(const char *s, size_t n) {
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
size_t tok_len(const char *s, size_t n, PpTokKind *kind) {
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
PpTok *tok_list(Arena *a, const char *s, size_t n) {
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

bool tok_is(const PpTok *t, const char *punct) {
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
char *tok_join(Arena *a, const PpTok *t) {
  Buf b = {.arena = a};
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

bool hide_has(const PpHide *h, const char *name) {
  for (; h; h = h->next)
    if (strcmp(h->name, name) == 0) return true;
  return false;
}

PpHide *hide_add(Arena *a, PpHide *h, const char *name) {
  if (hide_has(h, name)) return h;
  PpHide *n = ARENA_NEW(a, PpHide);
  n->name = name;
  n->next = h;
  return n;
}

// x | y; shares y's nodes (a body token's hide set is empty, so usually it is y).
PpHide *hide_union(Arena *a, const PpHide *x, PpHide *y) {
  for (; x; x = x->next)
    y = hide_add(a, y, x->name);
  return y;
}

PpHide *hide_inter(Arena *a, const PpHide *x, const PpHide *y) {
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
void table_set(MacroTable *t, const char *name, PpMacro *m, uint32_t pos) {
  PpEntry *e = table_entry(t, name, true);
  PpVersion *v = ARENA_NEW(t->a, PpVersion);
  v->pos = pos;
  v->macro = m;
  v->prev = e->newest;
  e->newest = v;
}

// The macro name at byte `at` of the main file (UINT32_MAX: the newest definition).
PpMacro *table_lookup(MacroTable *t, const char *name, uint32_t at) {
  PpEntry *e = table_entry(t, name, false);
  for (PpVersion *v = e ? e->newest : NULL; v; v = v->prev)
    if (v->pos <= at) return v->macro;
  return NULL;
}
