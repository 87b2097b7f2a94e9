// tests/fuzz/fuzz_translate.c: libFuzzer target for the whole translator pipeline.
//
// Every input is C source (with `#pragma adsoac ...` lines) and goes through adsoac_translate
// three times: --target=c, --target=cuda and --emit=ir.  Errors in the input are expected:
// diag_error calls our hook, which longjmps back here.  Real findings are sanitizer reports
// and internal errors (diag_internal exits with 3, which libFuzzer reports as "fuzz target
// exited").  Built and run by tests/fuzz/run.sh.
//
// tree-sitter objects: parse_program deletes its parser and tree on success, but an error
// longjmps past the deletes.  The link wraps the four tree-sitter calls involved
// (-Wl,--wrap=...) so that the harness can delete what an error left behind; without it a
// long run grows by a parser and a tree for every rejected input.
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "translate.h"

// ---- tree-sitter objects left behind by an error ----
TSParser *__real_ts_parser_new(void);
void __real_ts_parser_delete(TSParser *p);
TSTree *__real_ts_parser_parse_string(TSParser *p, const TSTree *old, const char *s, uint32_t n);
void __real_ts_tree_delete(TSTree *t);

enum { MAX_LIVE = 16 };
static TSParser *live_parsers[MAX_LIVE];
static TSTree *live_trees[MAX_LIVE];

static void track(void **slots, void *p) {
  for (int i = 0; i < MAX_LIVE; i++)
    if (!slots[i]) {
      slots[i] = p;
      return;
    }
  // more than MAX_LIVE at once: not tracked (leaks, harmless with -detect_leaks=0)
}

static void untrack(void **slots, void *p) {
  for (int i = 0; i < MAX_LIVE; i++)
    if (slots[i] == p) slots[i] = NULL;
}

TSParser *__wrap_ts_parser_new(void) {
  TSParser *p = __real_ts_parser_new();
  track((void **)live_parsers, p);
  return p;
}

void __wrap_ts_parser_delete(TSParser *p) {
  untrack((void **)live_parsers, p);
  __real_ts_parser_delete(p);
}

TSTree *__wrap_ts_parser_parse_string(TSParser *p, const TSTree *old, const char *s, uint32_t n) {
  TSTree *t = __real_ts_parser_parse_string(p, old, s, n);
  track((void **)live_trees, t);
  return t;
}

void __wrap_ts_tree_delete(TSTree *t) {
  untrack((void **)live_trees, t);
  __real_ts_tree_delete(t);
}

static void release_tree_sitter(void) {
  for (int i = 0; i < MAX_LIVE; i++) {
    if (live_trees[i]) __real_ts_tree_delete(live_trees[i]);
    if (live_parsers[i]) __real_ts_parser_delete(live_parsers[i]);
    live_trees[i] = NULL;
    live_parsers[i] = NULL;
  }
}

// ---- the error hook ----
static jmp_buf on_error;

static void error_hook(void) {
  longjmp(on_error, 1);
}

// Static, not locals of the entry: they are changed between setjmp and longjmp.
static Arena *arena;
static Buf out;

static void translate_once(const Src *src, Target target, bool emit_ir) {
  TranslateOptions o = {target, emit_ir, true, emit_ir ? NULL : "fuzz_grad.out", "fuzz"};
  if (!setjmp(on_error)) adsoac_translate(arena, &o, src, &out);
  release_tree_sitter();
  buf_free(&out);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  FILE *null = fopen("/dev/null", "w");
  if (!null) {
    perror("fuzz_translate: /dev/null");
    abort();
  }
  diag_set_stream(null);
  diag_on_error(error_hook);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  Src src = {"fuzz.c", text, size};
  arena = arena_new(0);
  translate_once(&src, TARGET_C, false);
  translate_once(&src, TARGET_CUDA, false);
  translate_once(&src, TARGET_C, true);
  arena_free(arena);
  arena = NULL;
  diag_set_source(NULL);
  free(text);
  return 0;
}
