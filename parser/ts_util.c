// parser/ts_util.c: small helpers over the tree-sitter API; syntax errors.
#include <string.h>

#include "parser.h"

Loc ts_loc(const Src *src, TSNode n) {
  if (src->at.line) return src->at;
  TSPoint p = ts_node_start_point(n); // 0-based
  return (Loc){src->path, p.row + 1, p.column + 1};
}

char *ts_text(Arena *a, const Src *src, TSNode n) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return arena_strndup(a, src->text + s, e - s);
}

bool ts_is(TSNode n, const char *type) {
  return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type);
}

TSNode ts_field(TSNode n, const char *field) {
  if (ts_node_is_null(n)) return n; // the 0.20 runtime does not check
  return ts_node_child_by_field_name(n, field, (uint32_t)strlen(field));
}

// tree-sitter recovers from syntax errors silently; we refuse the file at the first one.
static bool find_error(TSNode n, TSNode *bad) {
  if (ts_node_is_missing(n) || ts_is(n, "ERROR")) {
    *bad = n;
    return true;
  }
  if (!ts_node_has_error(n)) return false;
  uint32_t k = ts_node_child_count(n);
  for (uint32_t i = 0; i < k; i++)
    if (find_error(ts_node_child(n, i), bad)) return true;
  return false;
}

void ts_check_errors(const Src *src, TSNode root) {
  TSNode bad;
  if (!find_error(root, &bad)) return;
  if (ts_node_is_missing(bad))
    diag_error(ts_loc(src, bad), "the file must be valid C11", "expected '%s'", ts_node_type(bad));
  diag_error(ts_loc(src, bad), "the file must be valid C11 (macros are expanded only where "
             "they expand to expressions or statements)", "cannot parse this as C");
}
