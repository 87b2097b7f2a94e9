// parser/omp.c: OpenMP directives in a marked function read as adsoac's annotations
// (language.md 11).  A work-sharing or simd loop (`omp parallel for`, `omp for`, `... simd`,
// `omp simd`, `omp loop`) is a map; its reduction clauses are reduce clauses, `private` and
// `firstprivate` variables are the iteration's own, `collapse(n)` makes the next n - 1
// perfectly nested loops maps too.  The rest of the clauses change no meaning.
#include <ctype.h>
#include <string.h>

#include "lower.h"

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
  while (x.len && x.s[x.len - 1] == '\\') { // (continuation lines: the directive goes on)
    x.len = strlen(text);
    break;
  }
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
  if (!in_list(name, loops)) return OMP_OTHER;

  // the clauses
  Buf adsoac = {.arena = L->a};
  const char *priv[64];
  bool first[64];
  int npriv = 0, collapse = 1;
  Buf dropped = {.arena = L->a};
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
      if (strcmp(op, "+") && strcmp(op, "*") && strcmp(op, "min") && strcmp(op, "max"))
        diag_error(loc, "use reduction(+ - * min max: ...), or adsoac's reduce with a declared "
                   "operator", "reduction operator '%s' is not read yet (language.md 11)", op);
      buf_printf(&adsoac, "%s%s(%s: %s)", adsoac.data ? " " : "", kind, op, colon + 1);
    } else if (!strcmp(c, "private") || !strcmp(c, "firstprivate")) {
      const char **names;
      int n = args ? omp_names(L->a, args, &names) : 0;
      for (int k = 0; k < n && npriv < 64; k++) {
        priv[npriv] = names[k];
        first[npriv++] = c[0] == 'f';
      }
    } else if (!strcmp(c, "lastprivate") || !strcmp(c, "linear")) {
      diag_error(loc, "assign the variable after the loop from what the last iteration used, "
                 "and list it in private(...)", "'%s(%s)' is not read yet (language.md 11)", c,
                 args ? args : "");
    } else if (!strcmp(c, "collapse")) {
      char *end;
      long v = args ? strtol(args, &end, 10) : 0;
      if (!args || *end || v < 1 || v > 8)
        diag_error(loc, "write collapse(n), n a small positive integer", "bad collapse clause");
      collapse = (int)v;
    } else { // schedule, num_threads, if, nowait, proc_bind, shared, default, simdlen, ...
      buf_printf(&dropped, "%s%s%s%s%s", dropped.data ? ", " : "", c, args ? "(" : "",
                 args ? args : "", args ? ")" : "");
    }
  }
  if (dropped.data)
    diag_warn(loc, "adsoac chooses the schedule and the threads of the loops it writes",
              "'%s' of '#pragma omp %s' changes no meaning: the generated functions leave it "
              "out", dropped.data, name);
  const char *t = adsoac.data ? adsoac.data : "map",
             *full = arena_printf(L->a, "adsoac %s", t);
  Src s = {.path = loc.file, .text = full, .len = strlen(full), .at = loc};
  if (!pragma_parse_text(L->a, &s, 0, (uint32_t)s.len, loc, pr)) UNREACHABLE();
  pr->text = arena_printf(L->a, "%s (from #pragma omp %s)", t, name);
  pr->loc = loc;
  pr->omp = true;
  pr->collapse = collapse;
  pr->npriv = npriv;
  pr->priv = ARENA_ARRAY(L->a, const char *, npriv + 1);
  pr->firstpriv = ARENA_ARRAY(L->a, bool, npriv + 1);
  memcpy(pr->priv, priv, sizeof *priv * (size_t)npriv);
  memcpy(pr->firstpriv, first, sizeof *first * (size_t)npriv);
  return OMP_LOOP;
}
