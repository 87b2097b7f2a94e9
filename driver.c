// driver.c: the whole tool, top to bottom (language.md §9).
#define _XOPEN_SOURCE 700 // stat, lstat, mkstemp, sigaction
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir/ir.h"
#include "translate.h"

#ifndef ADSOAC_VERSION
#define ADSOAC_VERSION "0.1.0"
#endif

typedef enum { EMIT_CODE, EMIT_IR, EMIT_DOT, EMIT_CHECK, EMIT_HEADER } EmitKind;

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
  bool check_sched;
  bool deterministic;
  const char *dump_after; // --dump-after=PASS
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
    "  --emit=check       a standalone C program (default: INPUT_check.c) that validates the\n"
    "                     translation on random inputs of the sizes given on its command line:\n"
    "                     f against the original C, f_vjp and f_jvp against central\n"
    "                     differences (cc -O2 -fopenmp INPUT_check.c -lm; ./a.out n=100 x=n)\n"
    "  --emit=header      the prototypes of the generated functions for the --target's output,\n"
    "                     with the struct types they use, for C and C++ callers (default:\n"
    "                     INPUT_grad.h)\n"
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
    "  --check-schedules  (C, a test aid) reverse loops run in two phases of chunks check\n"
    "                     at run time that no two chunks of a phase update one element\n"
    "  --deterministic    the same bits whatever the number of threads and from run to\n"
    "                     run: reductions in a fixed number of blocks folded in order, loops\n"
    "                     that would combine in an order the threads decide run in order,\n"
    "                     scans of a fixed shape (CUDA: not CUB's)\n"
    "  --no-line          no #line directives in the output\n"
    "  --remarks, -R      per marked loop, on stderr: what was proven (each iteration's own\n"
    "                     elements, disjoint accesses, privatized arrays), what was taken on\n"
    "                     the user's word (injective(...)), how each adjoint is accumulated\n"
    "                     (plain, a reduction, per-thread copies, atomics, and why), what\n"
    "                     a sequential loop checkpoints\n"
    "  --passes           list the passes of the pipeline, in order, and exit\n"
    "  --dump-after=PASS  the IR of each marked function as it is after PASS (stdout unless\n"
    "                     -o), instead of code\n"
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
    } else if (!strcmp(a, "--emit=check")) {
      o.emit = EMIT_CHECK;
    } else if (!strcmp(a, "--emit=header")) {
      o.emit = EMIT_HEADER;
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
    } else if (!strcmp(a, "--check-schedules")) {
      o.check_sched = true;
    } else if (!strcmp(a, "--deterministic")) {
      o.deterministic = true;
    } else if (!strcmp(a, "--passes")) {
      adsoac_print_passes(stdout);
      exit(0);
    } else if (!strncmp(a, "--dump-after=", 13)) {
      if (!adsoac_pass_known(a + 13))
        usage_error("--dump-after: no pass is named '%s' (adsoac --passes lists them)", a + 13);
      o.dump_after = a + 13;
    } else if (!strcmp(a, "--no-line")) {
      o.line_directives = false;
    } else if (!strcmp(a, "--remarks") || !strcmp(a, "-R")) {
      diag_set_remarks(true);
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
  if (o->emit == EMIT_CHECK) return arena_printf(a, "%.*s_check.c", (int)n, in);
  if (o->emit == EMIT_HEADER) return arena_printf(a, "%.*s_grad.h", (int)n, in);
  return arena_printf(a, "%.*s_grad.%s", (int)n, in, o->target == TARGET_CUDA ? "cu" : "c");
}

// Whether a and b name the same existing file: through links, and however spelled.
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// ---- writing the outputs (language.md §9: completely or not at all) ----
//
// A regular file, or one not there yet, is written to a temporary file beside it and renamed
// over it, so that the old contents stay until the new ones are complete.  The temporary is
// created by mkstemp (O_CREAT | O_EXCL, a name nobody can guess): a symlink planted under
// its name is never followed.  It gets the old file's permission bits, or 0666 & ~umask.
// A symlink is written through to its target, which the rename replaces (the link stays),
// and a device or a fifo (-o /dev/null) is written in place: as cc does.

typedef struct {
  const char *path; // as named
  const Buf *text;
  const char *dest; // where the bytes go: path, or the file its symlinks lead to
  char *tmp;        // the temporary file beside dest; NULL: dest is written in place
  int fd;
} Output;

enum { MAX_OUTPUTS = 2 }; // the code and the dependency file

// The temporary files that exist now: a fatal signal removes them before it kills us.
static char *volatile pending[MAX_OUTPUTS];
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ};

static void on_fatal_signal(int sig) {
  for (int i = 0; i < MAX_OUTPUTS; i++)
    if (pending[i]) unlink(pending[i]);
  signal(sig, SIG_DFL);
  raise(sig); // delivered when the handler returns: we die of sig, as without the handler
}

// Installs on_fatal_signal, except for signals ignored when we started (nohup, a shell's
// background jobs), which stay ignored.
static void catch_fatal_signals(void) {
  for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++) {
    struct sigaction sa = {0}, old;
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    if (!sigaction(fatal_signals[i], &sa, &old) && old.sa_handler == SIG_IGN)
      sigaction(fatal_signals[i], &old, NULL);
  }
}

// Creating or renaming a temporary and recording it in pending[] happen as one step for
// the handler.
static void block_fatal_signals(bool block) {
  int saved = errno; // a failure just before is reported with its errno
  sigset_t set;
  sigemptyset(&set);
  for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++)
    sigaddset(&set, fatal_signals[i]);
  sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
  errno = saved;
}

// The file that path's symlinks lead to: path itself when it is not a link.  A relative
// link is relative to the link's directory; a dangling one leads to the file to create.
static const char *follow_links(Arena *a, const char *path) {
  const char *cur = path;
  for (int hops = 0; hops < 40; hops++) {
    struct stat st;
    char target[PATH_MAX];
    if (lstat(cur, &st) || !S_ISLNK(st.st_mode)) return cur;
    ssize_t n = readlink(cur, target, sizeof target - 1);
    if (n < 0) return NULL;
    target[n] = 0;
    const char *slash = strrchr(cur, '/');
    cur = target[0] == '/' || !slash ? arena_strdup(a, target)
                                     : arena_printf(a, "%.*s/%s", (int)(slash - cur), cur, target);
  }
  errno = ELOOP;
  return NULL;
}

// Opens where out's bytes go: a new temporary file, or a device or fifo itself.
static bool output_open(Arena *a, Output *out) {
  out->fd = -1;
  out->dest = follow_links(a, out->path);
  if (!out->dest) return false;
  struct stat st;
  bool exists = !stat(out->dest, &st);
  if (exists && !S_ISREG(st.st_mode)) { // cannot be renamed over; a directory fails here
    out->fd = open(out->dest, O_WRONLY | O_NOCTTY);
    return out->fd >= 0;
  }
  mode_t mask = umask(0);
  umask(mask);
  mode_t mode = exists ? st.st_mode & 0777 : 0666 & ~mask;
  char *tmp = arena_printf(a, "%s.tmpXXXXXX", out->dest);
  block_fatal_signals(true);
  out->fd = mkstemp(tmp); // mode 0600 until the fchmod below
  for (int i = 0; out->fd >= 0 && i < MAX_OUTPUTS; i++)
    if (!pending[i]) {
      pending[i] = out->tmp = tmp;
      break;
    }
  block_fatal_signals(false);
  return out->fd >= 0 && !fchmod(out->fd, mode);
}

static bool output_write(Output *out) {
  const char *p = out->text->data;
  for (size_t left = out->text->len; left > 0;) {
    ssize_t n = write(out->fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    p += n, left -= (size_t)n;
  }
  int fd = out->fd;
  out->fd = -1;
  return !close(fd);
}

// Removes out's temporary file (a failure: the destination is left as it was).
static void output_abandon(Output *out) {
  if (out->fd >= 0) close(out->fd);
  block_fatal_signals(true);
  for (int i = 0; i < MAX_OUTPUTS; i++)
    if (out->tmp && pending[i] == out->tmp) {
      unlink(out->tmp);
      pending[i] = NULL;
    }
  block_fatal_signals(false);
}

static bool output_commit(Output *out) {
  if (!out->tmp) return true;
  block_fatal_signals(true);
  bool ok = !rename(out->tmp, out->dest);
  for (int i = 0; ok && i < MAX_OUTPUTS; i++)
    if (pending[i] == out->tmp) pending[i] = NULL;
  block_fatal_signals(false);
  return ok;
}

// Writes every output, or on the first failure none: reports it, removes the temporary
// files and exits 1.  The renames come last, after every byte is written (a rename that
// fails after another succeeded cannot be undone, but needs the directory to change under us).
static void write_outputs(Arena *a, Output *outs, int n) {
  const Output *bad = NULL;
  for (int i = 0; i < n; i++) outs[i].fd = -1, outs[i].tmp = NULL;
  for (int i = 0; !bad && i < n; i++)
    if (!output_open(a, &outs[i])) bad = &outs[i];
  for (int i = 0; !bad && i < n; i++)
    if (!output_write(&outs[i])) bad = &outs[i];
  for (int i = 0; !bad && i < n; i++)
    if (!output_commit(&outs[i])) bad = &outs[i];
  if (!bad) return;
  fprintf(stderr, "adsoac: error: cannot write '%s': %s\n", bad->path, strerror(errno));
  for (int i = 0; i < n; i++) output_abandon(&outs[i]);
  exit(1);
}

static void write_output(Arena *a, const char *path, const Buf *b) {
  if (!strcmp(path, "-")) {
    fwrite(b->data, 1, b->len, stdout);
    return;
  }
  Output out = {path, b};
  write_outputs(a, &out, 1);
}

static const char *const *deps;
static int ndeps;

static bool compile(const Options *o, Arena *a, Buf *out, const char *path) {
  size_t len;
  char *text = read_input(a, o->input, &len);
  Src src = {o->input, text, len, {0}};
  TranslateOptions to = {.target = o->emit == EMIT_CHECK ? TARGET_C : o->target,
                         .emit_ir = o->emit == EMIT_IR,
                         .emit_dot = o->emit == EMIT_DOT,
                         .line_directives = o->line_directives,
                         .output_name = strcmp(path, "-") ? path : NULL,
                         .version = ADSOAC_VERSION,
                         .emit_check = o->emit == EMIT_CHECK,
                         .emit_header = o->emit == EMIT_HEADER};
  to.dump_after = o->dump_after;
  to.defines = o->defines;
  to.ndefines = o->ndefines;
  to.incdirs = o->incdirs;
  to.nincdirs = o->nincdirs;
  to.stripmine = o->stripmine;
  to.general_rule = o->general_rule;
  to.no_fuse = o->no_fuse;
  to.check_sched = o->check_sched;
  to.deterministic = o->deterministic;
  TranslateResult r = adsoac_translate(a, &to, &src, out);
  if (r == TRANSLATE_ERROR) exit(1); // diagnosed; no output written
  deps = to.deps;
  ndeps = to.ndeps;
  return r == TRANSLATE_OK;
}

// -MD: OUTPUT.d beside the output unless -MF names it.
static const char *dep_file_name(Arena *a, const Options *o, const char *path) {
  if (o->dep_file) return o->dep_file;
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
  return arena_printf(a, "%.*s.d", (int)n, path);
}

// A file name as make reads it, escaped as gcc -MD escapes it: a space or a tab gets a
// backslash (and the backslashes right before it are doubled, GNU make's rule), '#' (a
// comment) gets a backslash, '$' (a variable) is doubled.
static void dep_name(Buf *b, const char *s) {
  for (const char *p = s; *p; p++) {
    if (*p == ' ' || *p == '\t') {
      for (const char *q = p; q > s && q[-1] == '\\'; q--) buf_puts(b, "\\");
      buf_puts(b, "\\");
    } else if (*p == '#') {
      buf_puts(b, "\\");
    } else if (*p == '$') {
      buf_puts(b, "$");
    }
    buf_printf(b, "%c", *p);
  }
}

// -MD: "OUTPUT: INPUT HEADER...", and an empty rule per header (so a deleted header does not
// break the build), as gcc -MD -MP writes.
static void deps_text(const Options *o, const char *path, Buf *b) {
  dep_name(b, path);
  buf_puts(b, ": ");
  dep_name(b, o->input);
  for (int i = 0; i < ndeps; i++) {
    buf_puts(b, " \\\n  ");
    dep_name(b, deps[i]);
  }
  buf_puts(b, "\n");
  for (int i = 0; i < ndeps; i++) {
    buf_puts(b, "\n");
    dep_name(b, deps[i]);
    buf_puts(b, ":\n");
  }
}

// Usage errors in the file names, before anything is read or written: an output over the
// input would destroy it (language.md §9), two outputs in one file would be a mix.  df: the
// dependency file, NULL when the output is stdout.
static void check_outputs(const Options *o, const char *path, const char *df) {
  if (strcmp(path, "-") && same_file(path, o->input))
    usage_error("the output '%s' is the input file", path);
  if (!o->deps) return;
  if (!df) usage_error("%s needs an output file (-o)", "-MD");
  if (same_file(df, o->input)) usage_error("the dependency file '%s' is the input file", df);
  if (!strcmp(df, path) || same_file(df, path))
    usage_error("the dependency file '%s' is the output file", df);
}

int main(int argc, char **argv) {
  Options o = parse_options(argc, argv);
  Arena *a = arena_new(0);
  Buf out = {0}, dep = {0};
  const char *path = o.output                                ? o.output
                     : (o.emit != EMIT_CODE && o.emit != EMIT_CHECK && o.emit != EMIT_HEADER) ||
                               o.dump_after
                         ? "-"
                                                           : default_output(a, &o);
  const char *df = o.deps && strcmp(path, "-") ? dep_file_name(a, &o, path) : NULL;
  check_outputs(&o, path, df);
  bool ok = compile(&o, a, &out, path);
  catch_fatal_signals();
  if (ok && df) { // both files, or neither
    deps_text(&o, path, &dep);
    Output outs[] = {{path, &out}, {df, &dep}};
    write_outputs(a, outs, 2);
  } else if (ok || !strcmp(path, "-")) {
    write_output(a, path, &out);
  }
  buf_free(&out);
  buf_free(&dep);
  arena_free(a);
  return ok ? 0 : 1;
}
