// parser/lower_text.c: C expressions that do not stand in the parsed file as such: macro
// expansions and the expressions of pragma clauses (hist(+: h[lo:len])).  The text is parsed
// on its own; every location in it is reported at the use site.
#include <pthread.h>
#include <string.h>

#include "lower.h"

extern const TSLanguage *tree_sitter_c(void);

// Parses `void f(void) { (TEXT); }` and returns the parenthesised expression's inside, or a
// null node where TEXT broke that shape (#define M ( : the 0.20 runtime does not check for
// null nodes, and the walk down crashed).
static TSNode find_expr(TSNode root) {
  TSNode n = ts_field(ts_node_named_child(root, 0), "body");
  for (int i = 0; i < 3 && !ts_node_is_null(n); i++) n = ts_node_named_child(n, 0);
  return n;
}

static Val lower_text(Lower *L, const char *text, Loc at, bool expanded, Type *st, Val *out);

// The byte offset of a line and column of the main file.
static uint32_t loc_byte(const Src *src, Loc at) {
  uint32_t line = 1, i = 0;
  while (i < src->len && line < at.line)
    if (src->text[i++] == '\n') line++;
  return i + at.col - 1;
}

Val lower_expr_text(Lower *L, const char *text, Loc at, bool expanded) {
  return lower_text(L, text, at, expanded, NULL, NULL);
}

void lower_struct_text(Lower *L, const char *text, Loc at, Type *t, Val *out) {
  lower_text(L, text, at, false, t, out);
}

// Lowers text as a scalar expression, or (st) as a struct value into out[].
static Val lower_text(Lower *L, const char *text, Loc at, bool expanded, Type *st, Val *out) {
  const char *pre = "void adsoac_expr_(void) { (", *post = "\n); }";
  char *buf = arena_printf(L->a, "%s%s%s", pre, text, post);
  Src *src = ARENA_NEW(L->a, Src);
  *src = (Src){at.file, buf, strlen(buf), at, loc_byte(&L->prog->text, at)};
  TsOwned ts = {ts_parser_new(), NULL};
  Val v = 0;
  pthread_cleanup_push(ts_release, &ts);
  TSParser *parser = ts.parser;
  ts_parser_set_language(parser, tree_sitter_c());
  TSTree *tree = ts.tree = ts_parser_parse_string(parser, NULL, buf, (uint32_t)src->len);
  TSNode root = ts_tree_root_node(tree);
  TSNode e = find_expr(root);
  if (ts_node_has_error(root) || ts_node_is_null(e) ||
      ts_node_start_byte(e) < strlen(pre) || ts_node_end_byte(e) > strlen(pre) + strlen(text))
    diag_error(at, "in a marked function, a macro must expand to an expression (macros that "
               "expand to statements are not supported)",
               "cannot parse '%s' as an expression", text);
  ts_check_depth(src, root);
  const Src *outer = L->src;
  bool outer_expanded = L->in_expansion;
  L->src = src;
  L->in_expansion = L->in_expansion || expanded;
  int depth = L->expr_depth;
  L->expr_depth = 0;
  if (st)
    lower_struct_expr(L, e, st, out);
  else
    v = L->expr(L, e);
  L->src = outer;
  L->in_expansion = outer_expanded;
  L->expr_depth = depth;
  pthread_cleanup_pop(1); // ts_release
  return v;
}
