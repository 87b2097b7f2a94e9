// ir/diag.c: GCC-format diagnostics with the source line and a caret.
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static const Src *cur_src;
static FILE *diag_stream;
static _Thread_local bool in_try; // on a thread of diag_try

void diag_set_stream(FILE *f) {
  diag_stream = f;
}

#define OUT (diag_stream ? diag_stream : stderr)

// ---- diag_try ----

typedef struct {
  void (*fn)(void *);
  void *arg;
} Try;

static int failed_tag; // the exit value of a thread ended by an error: &failed_tag

static void *run_try(void *p) {
  Try *t = p;
  in_try = true;
  t->fn(t->arg);
  return NULL;
}

DiagTry diag_try(void (*fn)(void *), void *arg, size_t stack, int *err) {
  Try t = {fn, arg};
  pthread_attr_t attr;
  pthread_t th;
  *err = pthread_attr_init(&attr);
  if (*err) return DIAG_NO_THREAD;
  *err = pthread_attr_setstacksize(&attr, stack);
  if (!*err) *err = pthread_create(&th, &attr, run_try, &t);
  pthread_attr_destroy(&attr);
  if (*err) return DIAG_NO_THREAD;
  void *ret = NULL;
  pthread_join(th, &ret);
  return ret == &failed_tag ? DIAG_FAILED : DIAG_OK;
}

static const Src *extra_src[64]; // the project headers (their functions' diagnostics)
static int nextra;

void diag_set_source(const Src *src) {
  cur_src = src;
  nextra = 0;
}

void diag_add_source(const Src *src) {
  if (nextra < 64) extra_src[nextra++] = src;
}

// Prints the source line of loc and a caret under its column.  The column counts bytes (as
// gcc's does); the caret counts characters, so that it stands under the character on a line
// with UTF-8 before it.
static void show_line(Loc loc) {
  const Src *src = cur_src;
  for (int i = 0; loc.file && src && strcmp(loc.file, src->path) && i <= nextra; i++)
    src = i < nextra ? extra_src[i] : NULL;
  if (!src || loc.line == 0) return;
  const char *p = src->text, *end = p + src->len;
  for (uint32_t l = 1; l < loc.line && p < end; p++)
    if (*p == '\n') l++;
  const char *eol = memchr(p, '\n', (size_t)(end - p));
  if (!eol) eol = end;
  fprintf(OUT, "%5u | %.*s\n      | ", loc.line, (int)(eol - p), p);
  for (uint32_t c = 1; c < loc.col && p + c - 1 < eol; c++) {
    unsigned char b = (unsigned char)p[c - 1];
    if ((b & 0xC0) == 0x80) continue; // a continuation byte: its character has its space
    fputc(b == '\t' ? '\t' : ' ', OUT);
  }
  fputs("^\n", OUT);
}

static void report(Loc loc, const char *kind, const char *hint, const char *fmt, va_list ap) {
  const char *file = loc.file ? loc.file : (cur_src ? cur_src->path : "adsoac");
  if (loc.line)
    fprintf(OUT, "%s:%u:%u: %s: ", file, loc.line, loc.col, kind);
  else
    fprintf(OUT, "%s: %s: ", file, kind);
  vfprintf(OUT, fmt, ap);
  fputc('\n', OUT);
  show_line(loc);
  if (hint) fprintf(OUT, "      = hint: %s\n", hint);
}

void diag_error(Loc loc, const char *hint, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(loc, "error", hint, fmt, ap);
  va_end(ap);
  fflush(OUT);
  if (in_try) pthread_exit(&failed_tag); // diag_try returns DIAG_FAILED
  exit(1);
}

void diag_warn(Loc loc, const char *hint, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(loc, "warning", hint, fmt, ap);
  va_end(ap);
}

static bool remarks;

void diag_set_remarks(bool on) {
  remarks = on;
}

bool diag_remarks(void) {
  return remarks;
}

void diag_remark(Loc loc, const char *fmt, ...) {
  if (!remarks) return;
  va_list ap;
  va_start(ap, fmt);
  const char *file = loc.file ? loc.file : (cur_src ? cur_src->path : "adsoac");
  fprintf(OUT, "%s:%u:%u: remark: ", file, loc.line, loc.col);
  vfprintf(OUT, fmt, ap);
  fputc('\n', OUT);
  va_end(ap);
}

void diag_note(Loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(loc, "note", NULL, fmt, ap);
  va_end(ap);
}

void diag_internal(const char *file, int line, const char *msg) {
  fprintf(stderr, "adsoac: internal error at %s:%d: %s\n"
                  "adsoac: this is a bug in adsoac; no output was written\n",
          file, line, msg);
  exit(3);
}
