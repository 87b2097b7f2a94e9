// ir/arena.c: bump allocation for the compiler (freed once, at exit), and text buffers.
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

#ifndef ADSOAC_ARENA_BLOCK
#define ADSOAC_ARENA_BLOCK (1 << 16)
#endif

typedef struct Chunk {
  struct Chunk *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
} Chunk;

struct Arena {
  Chunk *head;
  size_t block;
};

static _Noreturn void out_of_memory(void) {
  fputs("adsoac: out of memory\n", stderr);
  exit(2);
}

Arena *arena_new(size_t block) {
  Arena *a = calloc(1, sizeof(Arena));
  if (!a) out_of_memory();
  a->block = block ? block : ADSOAC_ARENA_BLOCK;
  return a;
}

void arena_free(Arena *a) {
  if (!a) return;
  for (Chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a);
}

void arena_release(void *a) {
  arena_free(a);
}

void *arena_alloc(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  Chunk *c = a->head;
  if (!c || c->used + n > c->size) {
    size_t size = n > a->block ? n : a->block;
    c = malloc(sizeof(Chunk) + size);
    if (!c) out_of_memory();
    c->size = size;
    c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  void *p = c->data + c->used;
  c->used += n;
  memset(p, 0, n);
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_strdup(Arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = arena_alloc(a, (size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + (size_t)n + 1) cap *= 2;
    char *d;
    if (b->arena) {
      d = arena_alloc(b->arena, cap);
      if (b->len) memcpy(d, b->data, b->len);
    } else {
      d = realloc(b->data, cap);
      if (!d) out_of_memory();
    }
    b->data = d;
    b->cap = cap;
  }
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  b->len += (size_t)n;
}

void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void buf_puts(Buf *b, const char *s) {
  buf_printf(b, "%s", s);
}

void buf_free(Buf *b) {
  Arena *a = b->arena;
  if (!a) free(b->data);
  *b = (Buf){.arena = a};
}
