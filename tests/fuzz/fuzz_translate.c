// tests/fuzz/fuzz_translate.c: libFuzzer target for the whole translator pipeline.
//
// Every input is C source (with `#pragma adsoac ...` lines) and goes through adsoac_translate
// three times: --target=c, --target=cuda and --emit=ir.  Errors in the input are expected:
// adsoac_translate returns TRANSLATE_ERROR (the error ended the translation's thread, whose
// cleanup handlers deleted the tree-sitter parser and tree).  Real findings are sanitizer
// reports and internal errors (diag_internal exits with 3, which libFuzzer reports as "fuzz
// target exited").  Built and run by tests/fuzz/run.sh.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"

static void translate_once(const Src *src, Target target, bool emit_ir) {
  Arena *arena = arena_new(0);
  Buf out = {0};
  TranslateOptions o = {.target = target, .emit_ir = emit_ir, .line_directives = true,
                        .output_name = emit_ir ? NULL : "fuzz_grad.out", .version = "fuzz"};
  adsoac_translate(arena, &o, src, &out); // an error in the input is fine
  buf_free(&out);
  arena_free(arena);
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
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  Src src = {"fuzz.c", text, size};
  translate_once(&src, TARGET_C, false);
  translate_once(&src, TARGET_CUDA, false);
  translate_once(&src, TARGET_C, true);
  diag_set_source(NULL);
  free(text);
  return 0;
}
