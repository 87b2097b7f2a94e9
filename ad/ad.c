// ad/ad.c: the differentiation context.
#include "ad_internal.h"

#include <stdio.h>
#include <stdlib.h>

AdCtx *ad_new(Arena *a, bool general) {
  AdCtx *cx = calloc(1, sizeof *cx);
  if (!cx) {
    fputs("adsoac: out of memory\n", stderr);
    exit(2);
  }
  cx->a = a;
  cx->general = general;
  cx->scratch = arena_new(0);
  return cx;
}

void ad_free(AdCtx *cx) {
  if (!cx) return;
  while (cx->nif_tmp > 0) arena_free(cx->if_tmp[--cx->nif_tmp]);
  arena_free(cx->scratch);
  free(cx);
}
