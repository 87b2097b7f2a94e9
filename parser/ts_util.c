// parser/ts_util.c: small helpers over the tree-sitter API; syntax errors.
#include <pthread.h>
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
// A walk with a cursor (no recursion: the tree may be deeper than the limits, ts_check_depth
// runs after this), into the subtrees that have an error only.
static bool find_error(TSNode root, TSNode *bad) {
  if (!ts_node_has_error(root)) return false;
  TSTreeCursor c = ts_tree_cursor_new(root);
  bool found = false;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_is_missing(n) || ts_is(n, "ERROR")) {
      *bad = n;
      found = true;
      break;
    }
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) continue;
    bool up = true;
    while (up && !ts_tree_cursor_goto_next_sibling(&c)) up = ts_tree_cursor_goto_parent(&c);
    if (!up) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}

int max_tree_depth = MAX_TREE_DEPTH;

static void cursor_delete(void *c) {
  ts_tree_cursor_delete(c);
}

// (visit may diagnose an error, which ends the thread: the cursor is deleted then too)
void ts_walk(TSNode root, bool (*visit)(void *ctx, TSNode n, int depth), void *ctx) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  pthread_cleanup_push(cursor_delete, &c);
  int depth = 0;
  for (bool more = true; more;) {
    if (visit(ctx, ts_tree_cursor_current_node(&c), depth) && ts_tree_cursor_goto_first_child(&c)) {
      depth++;
      continue;
    }
    while (more && !ts_tree_cursor_goto_next_sibling(&c)) {
      more = ts_tree_cursor_goto_parent(&c);
      depth--;
    }
  }
  pthread_cleanup_pop(1);
}

void ts_check_depth(const Src *src, TSNode root) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  int depth = 0;
  for (;;) {
    if (depth > max_tree_depth) {
      TSNode n = ts_tree_cursor_current_node(&c);
      if (!ts_node_is_named(n) && ts_tree_cursor_goto_parent(&c)) // a token: what it belongs to
        n = ts_tree_cursor_current_node(&c);
      ts_tree_cursor_delete(&c);
      const char *t = ts_node_type(n);
      bool stmt = strstr(t, "statement") || !strcmp(t, "declaration") || !strcmp(t, "else_clause");
      if (stmt)
        diag_error(ts_loc(src, n), "move the inner statements into a function",
                   "statements nested more than %d levels deep", max_tree_depth);
      diag_error(ts_loc(src, n), "split the expression into several statements (a chain "
                 "a + b + ... of n terms nests n - 1 levels deep)",
                 "expression nested more than %d levels deep", max_tree_depth);
    }
    if (ts_tree_cursor_goto_first_child(&c)) {
      depth++;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        return;
      }
      depth--;
    }
  }
}
void ts_check_errors(const Src *src, TSNode root) {
  TSNode bad;
  if (!find_error(root, &bad)) return;
  if (ts_node_is_missing(bad))
    diag_error(ts_loc(src, bad), "the file must be valid C11", "expected '%s'", ts_node_type(bad));
  diag_error(ts_loc(src, bad), "the file must be valid C11 (macros are expanded only where "
             "they expand to expressions or statements)", "cannot parse this as C");
}

void ts_release(void *owned) {
  TsOwned *o = owned;
  if (o->tree) ts_tree_delete(o->tree);
  if (o->parser) ts_parser_delete(o->parser);
  o->tree = NULL;
  o->parser = NULL;
}

// ---- break and continue ----

typedef struct {
  bool found, brk;
} JumpWalk;

static bool jump_of(void *ctx, TSNode n, int depth) {
  JumpWalk *w = ctx;
  if (depth > 0 && (ts_is(n, "for_statement") || ts_is(n, "while_statement") ||
                    ts_is(n, "do_statement")))
    return false; // (their own)
  if (ts_is(n, w->brk ? "break_statement" : "continue_statement")) w->found = true;
  return !w->found;
}

bool has_jump(TSNode s, bool brk) {
  JumpWalk w = {false, brk};
  if (!ts_node_is_null(s)) ts_walk(s, jump_of, &w);
  return w.found;
}
