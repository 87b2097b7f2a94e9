// driver.c: the whole tool, top to bottom (language.md §9).
#define _XOPEN_SOURCE 700 // stat, lstat, mkstemp, sigaction
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "translate.h"

#ifndef ADSOAC_VERSION
#define ADSOAC_VERSION "0.1.0"
#endif

typedef enum { EMIT_CODE, EMIT_IR, EMIT_DOT } EmitKind;

typedef struct {
  const char *input, *output;
  Target target;
  EmitKind emit;
  bool line_directives;
  bool deps;            // -MD
  const char *dep_file; // -MF
  const char *defines[256], *incdirs[256];
  int ndefines, nincdirs;
  int stripmine;
  bool general_rule;
  bool no_fuse;
} Options;

static const char usage_text[] =
    "usage: adsoac [options] INPUT.c [-o OUTPUT]\n"
    "\n"
    "Translates the functions of INPUT.c marked '#pragma adsoac grad' into f (parallel\n"
    "primal), f_vjp (reverse mode) and f_jvp (forward mode).\n"
    "\n"
    "options:\n"
    "  -o FILE            output path (default: INPUT_grad.cu, or INPUT_grad.c for --target=c)\n"
    "  --target=cuda|c    CUDA C with CUB (default), or portable C11 with OpenMP\n"
    "  --emit=code|ir|dot the translated code (default), the SOAC IR as text, or the SOAC\n"
    "                     dataflow graph as Graphviz dot (ir and dot: stdout unless -o)\n"
    "  -D NAME[=VALUE]    define a macro, as a C compiler does (also -DNAME)\n"
    "  -I DIR             search DIR for #include \"...\" headers (also -IDIR)\n"
    "  -MD                also write a make dependency file (OUTPUT.d unless -MF)\n"
    "  -MF FILE           the dependency file's name\n"
    "  --stripmine=L      default levels of strip-mined checkpointing of sequential loops\n"
    "                     (1: one saved state per iteration; L: about L*T^(1/L) states)\n"
    "  --general-rule     the general rules instead of the special ones (every top-level\n"
    "                     reduction and scan(+) by the general scan rule): a cross-check\n"
    "  --no-fuse          keep the loops as distributed (one per reduction, histogram\n"
    "                     and elementwise part): shows the split, runs slower\n"
    "  --no-line          no #line directives in the output\n"
    "  --version          print the version and exit\n"
    "  --help             print this help and exit\n";

static _Noreturn void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "adsoac: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(run 'adsoac --help' for the options)\n");
  exit(2);
}

static Options parse_options(int argc, char **argv) {
  Options o = {NULL, NULL, TARGET_CUDA, EMIT_CODE, true};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **list = NULL;
    int *count = NULL;
    if (!strncmp(a, "-D", 2)) list = o.defines, count = &o.ndefines;
    if (!strncmp(a, "-I", 2)) list = o.incdirs, count = &o.nincdirs;
    if (list) {
      const char *v = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v || !*v) usage_error("%s needs an argument", a);
      if (*count == 256) usage_error("too many %s options", a);
      list[(*count)++] = v;
      continue;
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      exit(0);
    } else if (!strcmp(a, "--version")) {
      printf("adsoac %s\n", ADSOAC_VERSION);
      exit(0);
    } else if (!strcmp(a, "-o")) {
      if (++i == argc) usage_error("%s needs a file name", "-o");
      o.output = argv[i];
    } else if (!strcmp(a, "--target=cuda")) {
      o.target = TARGET_CUDA;
    } else if (!strcmp(a, "--target=c")) {
      o.target = TARGET_C;
    } else if (!strcmp(a, "--emit=code")) {
      o.emit = EMIT_CODE;
    } else if (!strcmp(a, "--emit=ir")) {
      o.emit = EMIT_IR;
    } else if (!strcmp(a, "--emit=dot")) {
      o.emit = EMIT_DOT;
    } else if (!strcmp(a, "-MD")) {
      o.deps = true;
    } else if (!strcmp(a, "-MF")) {
      if (++i == argc) usage_error("%s needs a file name", "-MF");
      o.dep_file = argv[i];
    } else if (!strncmp(a, "--stripmine=", 12)) {
      char *end;
      long l = strtol(a + 12, &end, 10);
      if (*end || l < 1 || l > 16) usage_error("--stripmine takes a level from 1 to 16, not '%s'", a + 12);
      o.stripmine = (int)l;
    } else if (!strcmp(a, "--general-rule")) {
      o.general_rule = true;
    } else if (!strcmp(a, "--no-fuse")) {
      o.no_fuse = true;
    } else if (!strcmp(a, "--no-line")) {
      o.line_directives = false;
    } else if (a[0] == '-' && a[1]) {
      usage_error("unknown option '%s'", a);
    } else {
      if (o.input) usage_error("more than one input file ('%s')", a);
      o.input = a;
    }
  }
  if (!o.input) usage_error("%s", "no input file");
  return o;
}

// The input: a regular file of at most 64 MiB (src_read), else "adsoac: error:".
static char *read_input(Arena *a, const char *path, size_t *len) {
  int err;
  char *text = src_read(a, path, len, &err);
  if (!text) {
    fprintf(stderr, "adsoac: error: cannot read '%s': %s\n", path, src_error(err));
    exit(1);
  }
  return text;
}

static const char *default_output(Arena *a, const Options *o) {
  const char *in = o->input;
  size_t n = strlen(in);
  if (n > 2 && !strcmp(in + n - 2, ".c")) n -= 2;
  return arena_printf(a, "%.*s_grad.%s", (int)n, in, o->target == TARGET_CUDA ? "cu" : "c");
}

// Whether a and b name the same existing file: through links, and however spelled.
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Writes through a temporary file and renames it, so a failure never leaves a partial file.
static void write_output(const char *path, const Buf *b) {
  if (!strcmp(path, "-")) {
    fwrite(b->data, 1, b->len, stdout);
    return;
  }
  size_t n = strlen(path);
  char *tmp = malloc(n + 16);
  snprintf(tmp, n + 16, "%s.tmp%d", path, (int)(b->len % 9973));
  FILE *f = fopen(tmp, "wb");
  if (!f || fwrite(b->data, 1, b->len, f) != b->len || fclose(f) || rename(tmp, path)) {
    fprintf(stderr, "adsoac: error: cannot write '%s': %s\n", path, strerror(errno));
    remove(tmp);
    exit(1);
  }
  free(tmp);
}

static const char *const *deps;
static int ndeps;

static bool compile(const Options *o, Arena *a, Buf *out, const char *path) {
  size_t len;
  char *text = read_input(a, o->input, &len);
  Src src = {o->input, text, len, {0}};
  TranslateOptions to = {o->target, o->emit == EMIT_IR, o->emit == EMIT_DOT, o->line_directives,
                         strcmp(path, "-") ? path : NULL, ADSOAC_VERSION};
  to.defines = o->defines;
  to.ndefines = o->ndefines;
  to.incdirs = o->incdirs;
  to.nincdirs = o->nincdirs;
  to.stripmine = o->stripmine;
  to.general_rule = o->general_rule;
  to.no_fuse = o->no_fuse;
  bool ok = adsoac_translate(a, &to, &src, out);
  deps = to.deps;
  ndeps = to.ndeps;
  return ok;
}

// -MD: "OUTPUT: INPUT HEADER...", and an empty rule per header (so a deleted header does not
// break the build), as gcc -MD -MP writes.
static void write_deps(Arena *a, const Options *o, const char *path) {
  const char *df = o->dep_file;
  if (!df) {
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    df = arena_printf(a, "%.*s.d", (int)n, path);
  }
  Buf b = {0};
  buf_printf(&b, "%s: %s", path, o->input);
  for (int i = 0; i < ndeps; i++) buf_printf(&b, " \\\n  %s", deps[i]);
  buf_puts(&b, "\n");
  for (int i = 0; i < ndeps; i++) buf_printf(&b, "\n%s:\n", deps[i]);
  write_output(df, &b);
  buf_free(&b);
}

int main(int argc, char **argv) {
  Options o = parse_options(argc, argv);
  Arena *a = arena_new(0);
  Buf out = {0};
  const char *path = o.output ? o.output : o.emit != EMIT_CODE ? "-" : default_output(a, &o);
  // before anything is read: an output over the input would destroy it (language.md §9)
  if (strcmp(path, "-") && same_file(path, o.input))
    usage_error("the output '%s' is the input file", path);
  bool ok = compile(&o, a, &out, path);
  if (ok || !strcmp(path, "-")) write_output(path, &out);
  if (ok && o.deps) {
    if (!strcmp(path, "-")) usage_error("%s needs an output file (-o)", "-MD");
    write_deps(a, &o, path);
  }
  buf_free(&out);
  arena_free(a);
  return ok ? 0 : 1;
}
