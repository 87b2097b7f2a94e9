// parser/pp.h: the preprocessor's types, shared by macro.c, pp_std.c, pp_expand.c and
// pp_token.c (those files only; the interface is macro.h).
#pragma once
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

static inline void tok_push(PpList *l, PpTok *t) {
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
  unsigned std_seen; // the standard headers included (pp_std.c), one bit each
  uint32_t (*detached)[2]; // #pragma lines blanked where a statement is expected (macro.c)
  int ndetached, capdetached;
};

// Room for element n of an arena array of capacity *cap.

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

// ---- pp_token.c ----
PpHide *hide_add(Arena *a, PpHide *h, const char *name);
bool hide_has(const PpHide *h, const char *name);
PpHide *hide_inter(Arena *a, const PpHide *x, const PpHide *y);
PpHide *hide_union(Arena *a, const PpHide *x, PpHide *y);
// Every error of the module; one in an included file shows that file's line.
_Noreturn void macro_error(MacroTable *t, Loc loc, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
size_t pp_comment_end(const char *s, size_t n, size_t i);
void pp_blank_comments(char *s, size_t n);
void *pp_grow(Arena *a, void *p, int n, int *cap, size_t size);
bool pp_is_space(char c);
PpMacro *table_lookup(MacroTable *t, const char *name, uint32_t at);
void table_set(MacroTable *t, const char *name, PpMacro *m, uint32_t pos);
size_t tok_blank(const char *s, size_t n);
bool tok_is(const PpTok *t, const char *punct);
char *tok_join(Arena *a, const PpTok *t);
size_t tok_len(const char *s, size_t n, PpTokKind *kind);
PpTok *tok_list(Arena *a, const char *s, size_t n);
size_t tok_quoted(const char *s, size_t n);

// ---- pp_std.c ----
void std_include(MacroTable *t, const PpTok *lt, uint32_t pos, Loc loc);

// ---- pp_expand.c ----
void define_arg(MacroTable *t, const char *arg);
PpMacro *define_parse(MacroTable *t, PpTok *toks, Loc loc);
bool ev_if(MacroTable *t, PpTok *toks, Loc loc);
PpTok *exp_list(PpExp *e, PpTok *tok);
