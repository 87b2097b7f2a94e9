// parser/macro.c: the preprocessor subset of parser/macro.h (C11 6.10): files, the directives
// line by line (conditionals, #define/#undef with the offset where each takes effect,
// #include "file"), and the interface; definitions and expansion in pp_expand.c, tokens and
// the table in pp_token.c.
#define _XOPEN_SOURCE 700 // realpath
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pp.h"

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
  if (tok_is(rest, "<")) { // a system header: not read, its macros known
    std_include(t, rest, scan_pos(s, hash), loc);
    return;
  }
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

// The C11 compiler's own macros that portable code tests (6.10.8.1); the target's come with
// the options.
static const char *const macro_predefined[] = {"__STDC__", "__STDC_HOSTED__",
                                               "__STDC_VERSION__=201112L"};

// ---- declaration specifiers the grammar does not know ----
// CUDA's and GNU's function and variable annotations (__host__ __device__, __forceinline__,
// __launch_bounds__(...)) mean nothing to a derivative: they become blanks.  An object-like
// macro that expands to such annotations and C's own specifiers only (#define HD __host__
// __device__, #define INLINE static inline, #define RESTRICT __restrict__) is replaced by
// what the C preprocessor gives, without the annotations and the specifiers that do not
// matter to a derivative (inline, restrict), where that fits in the name's bytes (every byte
// keeps its line and column); the grammar parses the declaration then.

static const char *const annotations[] = {
    "__host__", "__device__", "__global__", "__forceinline__", "__noinline__", "__shared__",
    "__constant__", "__managed__", "__restrict__", "__restrict", "__inline__", "__inline",
    "__extension__", "__launch_bounds__", "__align__", "__attribute__", "__declspec"};
// Specifiers that change what a declaration means to adsoac: kept (static gives f, f_vjp and
// f_jvp internal linkage); the others (inline, restrict, register, volatile, _Noreturn) are
// dropped with the annotations.
static const char *const specifiers[] = {"static", "extern", "const"};
static const char *const dropped[] = {"inline", "restrict", "register", "volatile", "_Noreturn"};

static bool in_list(const char *s, size_t n, const char *const *list, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (strlen(list[i]) == n && !memcmp(s, list[i], n)) return true;
  return false;
}

static bool is_annotation(const char *s, size_t n) {
  return in_list(s, n, annotations, sizeof annotations / sizeof *annotations);
}

static bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// The end of the parenthesized arguments at s[i..n) (after blanks), or i where none follow.
static size_t skip_parens(const char *s, size_t n, size_t i) {
  size_t j = i;
  while (j < n && (s[j] == ' ' || s[j] == '\t')) j++;
  if (j >= n || s[j] != '(') return i;
  int depth = 0;
  for (; j < n; j++) {
    if (s[j] == '(') depth++;
    if (s[j] == ')' && --depth == 0) return j + 1;
  }
  return i;
}

// The expansion of an object-like macro without its annotations, when it holds nothing else
// than annotations and specifiers; NULL otherwise.
static const char *specifiers_only(MacroTable *t, const char *name, uint32_t at) {
  PpMacro *m = table_lookup(t, name, at);
  if (!m || m->function_like) return NULL;
  const char *x = macro_expand(t, name, NULL, 0, false, at, (Loc){0});
  Buf kept = {.arena = t->a};
  size_t n = strlen(x), i = 0;
  bool ok = true;
  while (ok && i < n) {
    if (x[i] == ' ' || x[i] == '\t') {
      i++;
      continue;
    }
    size_t j = i;
    while (j < n && ident_char(x[j])) j++;
    if (j == i) {
      ok = false;
    } else if (is_annotation(x + i, j - i)) {
      i = skip_parens(x, n, j);
    } else if (in_list(x + i, j - i, dropped, sizeof dropped / sizeof *dropped)) {
      i = j;
    } else if (in_list(x + i, j - i, specifiers, sizeof specifiers / sizeof *specifiers)) {
      buf_printf(&kept, "%s%.*s", kept.len ? " " : "", (int)(j - i), x + i);
      i = j;
    } else {
      ok = false;
    }
  }
  const char *r = ok ? arena_strdup(t->a, kept.len ? kept.data : "") : NULL;
  buf_free(&kept);
  return r;
}

static void blank_specifiers(MacroTable *t, char *s, size_t n) {
  size_t i = 0;
  bool line_start = true;
  while (i < n) {
    char c = s[i];
    if (c == '\n') {
      line_start = true;
      i++;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      i++;
    } else if (c == '#' && line_start) { // a directive, with its continuation lines
      while (i < n && (s[i] != '\n' || s[i - 1] == '\\')) i++;
    } else if (c == '"' || c == '\'') {
      line_start = false;
      i += tok_quoted(s + i, n - i);
    } else if (ident_char(c) && !(c >= '0' && c <= '9')) {
      line_start = false;
      size_t j = i;
      while (j < n && ident_char(s[j])) j++;
      if (is_annotation(s + i, j - i)) {
        size_t e = skip_parens(s, n, j);
        for (size_t k = i; k < e; k++)
          if (s[k] != '\n' && s[k] != '\r') s[k] = ' ';
        i = e;
        continue;
      }
      char *name = arena_strndup(t->a, s + i, j - i);
      const char *kept = table_lookup(t, name, (uint32_t)i) ? specifiers_only(t, name, (uint32_t)i) : NULL;
      if (kept && strlen(kept) <= j - i) {
        memset(s + i, ' ', j - i);
        memcpy(s + i, kept, strlen(kept));
      }
      i = j;
    } else {
      line_start = false;
      i++;
    }
  }
}

// ---- pragmas in a statement's place ----

static bool line_end(char c) { return c == '\n' || c == '\r'; }

// The start of the line that holds text[i], and of the logical line it continues (the lines
// before it that end in a backslash).
static size_t line_start(const char *s, size_t i) {
  while (i > 0 && !line_end(s[i - 1])) i--;
  return i;
}

static size_t logical_start(const char *s, size_t ls) {
  while (ls > 1 && line_end(s[ls - 1])) {
    size_t k = ls - 1; // (the end of the line before: "\\\n" or "\\\r\n")
    if (k > 0 && s[k] == '\n' && s[k - 1] == '\r') k--;
    if (k == 0 || s[k - 1] != '\\') break;
    ls = line_start(s, k - 1);
  }
  return ls;
}

static size_t skip_blank(const char *s, size_t i, size_t n) {
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f' || s[i] == '\v')) i++;
  return i;
}

// Does the text before the line at ls end a statement's header (for (...), while (...),
// if (...), else, do), so that a directive on that line stands where the statement goes?
// Blank lines and other directives (#define F(x) (x) ends in ')' too) are skipped.
static bool after_header(const char *s, size_t ls, size_t n) {
  while (ls > 0) {
    size_t e = ls - 1; // the line before: [start, e)
    if (e > 0 && s[e] == '\n' && s[e - 1] == '\r') e--;
    size_t st = line_start(s, e);
    size_t first = skip_blank(s, logical_start(s, st), n);
    ls = st;
    if (first < n && s[first] == '#') continue; // (a directive, or a line of one)
    while (e > st && isspace((unsigned char)s[e - 1])) e--;
    if (e == st) continue; // blank (comments and inactive regions are blanked)
    if (s[e - 1] == ')') return true;
    for (int k = 0; k < 2; k++) {
      const char *w = k ? "do" : "else";
      size_t len = strlen(w);
      if (e - st >= len && !memcmp(s + e - len, w, len) &&
          (e - st == len || !(isalnum((unsigned char)s[e - len - 1]) || s[e - len - 1] == '_')))
        return true;
    }
    return false;
  }
  return false;
}

// Blanks the directives of text that stand where a statement is expected (the macro table
// has read them already), and lists the #pragma lines among them (macro_detached).
static void detach_body_pragmas(MacroTable *t, char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t p = skip_blank(s, i, n), e = p;
    while (e < n && !line_end(s[e])) e++;
    size_t next = e < n ? e + 1 : e;
    if (p < n && s[p] == '#') {
      size_t k = skip_blank(s, p + 1, n);
      bool pragma = e - k >= 6 && !memcmp(s + k, "pragma", 6) &&
                    (k + 6 == e || isspace((unsigned char)s[k + 6]));
      size_t w = pragma ? skip_blank(s, k + 6, n) : n; // (file-level ones stay: grad, ...)
      const char *word = w + 6 <= n ? s + skip_blank(s, w + 6, n) : ""; // (strncmp: to NUL)
      bool file_level = pragma && !strncmp(s + w, "adsoac", 6) &&
                        (!strncmp(word, "grad", 4) || !strncmp(word, "operator", 8) ||
                         !strncmp(word, "derivative", 10));
      while (e < n && e > p && s[e - 1] == '\\') { // (continuation lines)
        e++;
        if (e < n && s[e - 1] == '\r' && s[e] == '\n') e++;
        while (e < n && !line_end(s[e])) e++;
      }
      next = e < n ? e + 1 : e;
      if (!file_level && after_header(s, i, n)) { // (#define there: read, blanked as well)
        if (pragma) {
          t->detached = pp_grow(t->a, t->detached, t->ndetached, &t->capdetached,
                                sizeof *t->detached);
          t->detached[t->ndetached][0] = (uint32_t)p;
          t->detached[t->ndetached++][1] = (uint32_t)e;
        }
        for (size_t q = p; q < e; q++)
          if (!line_end(s[q])) s[q] = ' ';
      }
    }
    i = next;
  }
}

int macro_detached(const MacroTable *t, const uint32_t (**ranges)[2]) {
  *ranges = (const uint32_t(*)[2])t->detached;
  return t->ndetached;
}

MacroTable *macro_table_new(Arena *a, const Src *src, const MacroOptions *opt) {
  MacroTable *t = ARENA_NEW(a, MacroTable);
  t->a = a;
  int nincdirs = opt ? opt->nincdirs : 0;
  t->incdirs = ARENA_ARRAY(a, const char *, nincdirs > 0 ? nincdirs : 1);
  for (int i = 0; i < nincdirs; i++)
    t->incdirs[i] = arena_strdup(a, opt->incdirs[i]);
  t->nincdirs = nincdirs;
  for (size_t i = 0; i < sizeof macro_predefined / sizeof *macro_predefined; i++)
    define_arg(t, macro_predefined[i]);
  for (int i = 0; opt && i < opt->npredefined; i++)
    define_arg(t, opt->predefined[i]);
  for (int i = 0; opt && i < opt->ndefines; i++)
    define_arg(t, opt->defines[i]);
  PpFile *f = ARENA_NEW(a, PpFile);
  f->path = src->path;
  f->src = *src;
  pp_file_prepare(a, f);
  f->active = arena_strndup(a, src->text, src->len);
  t->main = f;
  scan_file(t, f, UINT32_MAX, 0);
  pp_blank_comments(f->active, src->len);
  detach_body_pragmas(t, f->active, src->len);
  blank_specifiers(t, f->active, src->len);
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

const char *macro_text(MacroTable *t, const char *name, uint32_t at_byte) {
  PpMacro *m = table_lookup(t, name, at_byte);
  return m ? tok_join(t->a, m->body) : NULL;
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
