// tests/unit/test_macro.c: the preprocessor subset (parser/macro.c): expansion, conditionals,
// the active text, includes, and the diagnostics of malformed directives.
#define _XOPEN_SOURCE 700 // mkdtemp
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir/ir.h"
#include "parser/macro.h"

static Arena *arena;

static int setup(void **state) {
  (void)state;
  arena = arena_new(0);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  arena_free(arena);
  return 0;
}

static MacroTable *table_full(const char *path, const char *text, const char *const *defs,
                              int ndefs, const char *const *incs, int nincs) {
  Src *src = ARENA_NEW(arena, Src);
  src->path = path;
  src->text = arena_strdup(arena, text);
  src->len = strlen(text);
  MacroOptions opt = {NULL, defs, incs, 0, ndefs, nincs};
  return macro_table_new(arena, src, &opt);
}

static MacroTable *table(const char *text) {
  return table_full("main.c", text, NULL, 0, NULL, 0);
}

// An object-like use (or any use) after everything in the file.
static const char *expand(MacroTable *t, const char *name) {
  return macro_expand(t, name, NULL, 0, false, UINT32_MAX, (Loc){"main.c", 1, 1});
}

static const char *call(MacroTable *t, const char *name, int nargs, ...) {
  const char *args[16];
  va_list ap;
  va_start(ap, nargs);
  for (int i = 0; i < nargs; i++)
    args[i] = va_arg(ap, const char *);
  va_end(ap);
  return macro_expand(t, name, args, nargs, true, UINT32_MAX, (Loc){"main.c", 1, 1});
}

static bool defined(MacroTable *t, const char *name) {
  return macro_defined(t, name, UINT32_MAX, NULL);
}

// ---- errors: the code under test runs in diag_try, the message is read from a temporary
// file ----

static char diag_text[4096];
static const Loc use_loc = {"main.c", 9, 5};

// One call of what is under test, run by diag_try (an error ends its thread).
typedef struct {
  const char *path, *text;
  const char *const *defs;
  int ndefs;
  MacroTable *t; // expand: the table; NULL: build one from path and text
  const char *name;
  const char *const *args;
  int nargs;
  bool is_call;
} Call;

static void run_call(void *arg) {
  Call *c = arg;
  if (c->t)
    macro_expand(c->t, c->name, c->args, c->nargs, c->is_call, UINT32_MAX, use_loc);
  else
    table_full(c->path, c->text, c->defs, c->ndefs, NULL, 0);
}

// The diagnostic of c, or NULL if there is none.
static const char *call_error(Call *c) {
  FILE *f = tmpfile();
  assert_non_null(f);
  diag_set_stream(f);
  diag_text[0] = 0;
  int err;
  DiagTry r = diag_try(run_call, c, (size_t)64 << 20, &err);
  assert_int_not_equal(r, DIAG_NO_THREAD);
  diag_set_stream(NULL);
  diag_set_source(NULL); // an error in a header points diag at the header's text
  rewind(f);
  size_t n = fread(diag_text, 1, sizeof diag_text - 1, f);
  diag_text[n] = 0;
  fclose(f);
  return r == DIAG_FAILED ? diag_text : NULL;
}

// The diagnostic of reading text (with -D defs), or NULL if there is none.
static const char *scan_error(const char *text, const char *const *defs, int ndefs) {
  Call c = {.path = "main.c", .text = text, .defs = defs, .ndefs = ndefs};
  return call_error(&c);
}

// The diagnostic of a use of name with args (call) at the end of t, or NULL.
static const char *expand_error(MacroTable *t, const char *name, const char *const *args, int nargs,
                                bool is_call) {
  Call c = {.t = t, .name = name, .args = args, .nargs = nargs, .is_call = is_call};
  return call_error(&c);
}

static void assert_contains(const char *s, const char *part) {
  assert_non_null(s);
  if (!strstr(s, part)) fail_msg("'%s' not in '%s'", part, s);
}

// ---- expansion ----

static void test_object_like(void **state) {
  (void)state;
  MacroTable *t = table("#define N 10\n#define M N*2\n#define EMPTY\nint x;\n");
  assert_string_equal(expand(t, "N"), "10");
  assert_string_equal(expand(t, "M"), "10*2");
  assert_string_equal(expand(t, "EMPTY"), "");
  assert_null(expand(t, "x"));
  // an object-like macro with a call: its expansion, the caller applies the call
  assert_string_equal(call(t, "N", 1, "3"), "10");
  bool fl = true;
  assert_true(macro_defined(t, "M", UINT32_MAX, &fl));
  assert_false(fl);
  assert_false(macro_defined(t, "x", UINT32_MAX, &fl));
}

static void test_function_like(void **state) {
  (void)state;
  MacroTable *t = table("#define IDX(i,j) ((i)*m+(j))\n"
                        "#define SQ(x) ((x) * (x))\n"
                        "#define NOARGS() 42\n"
                        "#define ONE(x) [x]\n"
                        "#define F (a)\n");
  assert_string_equal(call(t, "IDX", 2, "i+1", "j"), "((i+1)*m+(j))");
  assert_string_equal(call(t, "SQ", 1, "IDX(a, b)"), "((((a)*m+(b))) * (((a)*m+(b))))");
  assert_string_equal(call(t, "NOARGS", 0), "42");
  assert_string_equal(call(t, "ONE", 0), "[]"); // "()" is one empty argument
  assert_string_equal(call(t, "ONE", 1, " f ( x ) "), "[f ( x )]");
  assert_null(expand(t, "IDX")); // a function-like name without a call is an identifier
  bool fl = false;
  assert_true(macro_defined(t, "IDX", UINT32_MAX, &fl));
  assert_true(fl);
  // "F (a)" is object-like: a space before '('
  assert_string_equal(expand(t, "F"), "(a)");
}

static void test_nested_and_self_reference(void **state) {
  (void)state;
  MacroTable *t = table("#define x x+1\n"
                        "#define foo a foo b\n"
                        "#define A B\n#define B A\n"
                        "#define f(y) f(y+1)\n"
                        "#define g(y) h(y)\n#define h(y) g(y)\n"
                        "#define W1 W2\n#define W2 W3\n#define W3 3\n");
  assert_string_equal(expand(t, "x"), "x+1");
  assert_string_equal(expand(t, "foo"), "a foo b");
  assert_string_equal(expand(t, "A"), "A");
  assert_string_equal(expand(t, "B"), "B");
  assert_string_equal(call(t, "f", 1, "f(0)"), "f(f(0+1)+1)");
  assert_string_equal(call(t, "g", 1, "1"), "g(1)");
  assert_string_equal(expand(t, "W1"), "3");
}

static void test_prescan(void **state) {
  (void)state;
  MacroTable *t = table("#define ONE 1\n"
                        "#define ADD(x,y) x+y\n"
                        "#define str(s) # s\n"
                        "#define xstr(s) str(s)\n"
                        "#define CAT(a,b) a ## b\n"
                        "#define AP(f) f(2)\n"
                        "#define DBL(v) (2*(v))\n");
  assert_string_equal(call(t, "ADD", 2, "ONE", "ONE"), "1+1");
  assert_string_equal(call(t, "str", 1, "ONE"), "\"ONE\"");
  assert_string_equal(call(t, "xstr", 1, "ONE"), "\"1\"");
  assert_string_equal(call(t, "CAT", 2, "ONE", "ONE"), "ONEONE"); // ## operands: not expanded
  assert_string_equal(call(t, "AP", 1, "DBL"), "(2*(2))");        // a name, then called
}

// C11 6.10.3.5 EXAMPLE 3 (the uses the API can express) and EXAMPLE 4.
static void test_standard_examples(void **state) {
  (void)state;
  MacroTable *t = table("#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n"
                        "#define g f\n#define z z[0]\n#define h g(~\n#define m(a) a(w)\n"
                        "#define w 0,1\n#define t(a) a\n#define p() int\n#define q(x) x\n"
                        "#define r(x,y) x ## y\n#define str(x) # x\n");
  assert_string_equal(call(t, "f", 1, "y+1"), "f(2 * (y+1))");
  assert_string_equal(call(t, "f", 1, "f(z)"), "f(2 * (f(2 * (z[0]))))");
  assert_string_equal(call(t, "m", 1, "m"), "m(0,1)");
  assert_string_equal(call(t, "t", 1, "t(g)(0) + t"), "f(2 * (0)) + t");
  assert_string_equal(call(t, "p", 0), "int");
  assert_string_equal(call(t, "q", 1, "x"), "2");
  assert_string_equal(call(t, "r", 2, "x", "y"), "xy");
  assert_string_equal(call(t, "str", 1, " : @\\n"), "\": @\\n\"");
  assert_string_equal(expand(t, "g"), "f");

  MacroTable *u = table("#define str(s) # s\n#define xstr(s) str(s)\n"
                        "#define debug(s, t) printf(\"x\" # s \"= %d, x\" # t \"= %s\", \\\n"
                        "   x ## s, x ## t)\n"
                        "#define INCFILE(n) vers ## n\n#define glue(a, b) a ## b\n"
                        "#define xglue(a, b) glue(a, b)\n#define HIGHLOW \"hello\"\n"
                        "#define LOW LOW \", world\"\n");
  assert_string_equal(call(u, "debug", 2, "1", "2"),
                      "printf(\"x\" \"1\" \"= %d, x\" \"2\" \"= %s\", x1, x2)");
  assert_string_equal(call(u, "str", 1,
                           "strncmp(\"abc\\0d\", \"abc\", '\\4') // this goes away\n"
                           "      == 0"),
                      "\"strncmp(\\\"abc\\\\0d\\\", \\\"abc\\\", '\\\\4') == 0\"");
  assert_string_equal(call(u, "xstr", 1, "INCFILE(2).h"), "\"vers2.h\"");
  assert_string_equal(call(u, "glue", 2, "HIGH", "LOW"), "\"hello\"");
  assert_string_equal(call(u, "xglue", 2, "HIGH", "LOW"), "\"hello\" \", world\"");
}

static void test_paste_and_variadic(void **state) {
  (void)state;
  MacroTable *t = table("#define CAT(a,b) a ## b\n"
                        "#define CAT3(a,b,c) a ## b ## c\n"
                        "#define OBJ x ## 1\n"
                        "#define OP(a) a ## =\n"
                        "#define V(...) f(__VA_ARGS__)\n"
                        "#define LOG(fmt, ...) printf(fmt, ## __VA_ARGS__)\n"
                        "#define NAMED(fmt, args...) g(fmt, args)\n"
                        "#define SV(...) #__VA_ARGS__\n"
                        "#define N 7\n");
  assert_string_equal(call(t, "CAT", 2, "x", "y"), "xy");
  assert_string_equal(call(t, "CAT", 2, "", "y"), "y");
  assert_string_equal(call(t, "CAT", 2, "x", ""), "x");
  assert_string_equal(call(t, "CAT", 2, "", ""), "");
  assert_string_equal(call(t, "CAT", 2, "1", "e"), "1e");
  assert_string_equal(call(t, "CAT", 2, "N", "N"), "NN");
  assert_string_equal(call(t, "CAT", 2, "a b", "c d"), "a bc d");
  assert_string_equal(call(t, "CAT3", 3, "a", "", "c"), "ac");
  assert_string_equal(expand(t, "OBJ"), "x1");
  assert_string_equal(call(t, "OP", 1, "+"), "+=");
  assert_string_equal(call(t, "CAT", 2, "<", "<="), "<<=");
  assert_string_equal(call(t, "V", 3, "a", "b", "N"), "f(a,b,7)");
  assert_string_equal(call(t, "V", 0), "f()");
  assert_string_equal(call(t, "LOG", 1, "\"hi\""), "printf(\"hi\")");
  assert_string_equal(call(t, "LOG", 3, "\"%d %d\"", "a", "b"), "printf(\"%d %d\",a,b)");
  assert_string_equal(call(t, "NAMED", 2, "s", "1"), "g(s, 1)");
  assert_string_equal(call(t, "SV", 2, "a", "b"), "\"a,b\"");
}

static void test_spacing(void **state) {
  (void)state;
  MacroTable *t = table("#define NEG -1\n#define SUB(a) a-NEG\n#define PLUS +\n"
                        "#define INC(a) a PLUS+\n#define DIV /\n#define D(a) a DIV*\n"
                        "#define E(a) a.N\n#define N 5\n");
  assert_string_equal(call(t, "SUB", 1, "x"), "x- -1"); // not "x--1"
  assert_string_equal(call(t, "INC", 1, "i"), "i + +");
  assert_string_equal(call(t, "D", 1, "p"), "p / *"); // not a comment
  assert_string_equal(call(t, "E", 1, "s"), "s. 5");  // "s.5" lexes as s .5
  assert_string_equal(call(t, "E", 1, "1"), "1 . 5"); // "1.5", "1." would be numbers
}

// ---- -D, #undef, positions ----

static void test_command_line_defines(void **state) {
  (void)state;
  const char *defs[] = {"FLAG", "N=3+4", "F(a,b)=a*b", "EMPTY=", "G(x)", "S=\"s\""};
  MacroTable *t =
      table_full("main.c", "#if FLAG && N == 7\n#define OK\n#endif\n", defs, 6, NULL, 0);
  assert_string_equal(expand(t, "FLAG"), "1");
  assert_string_equal(expand(t, "N"), "3+4");
  assert_string_equal(call(t, "F", 2, "u", "v"), "u*v");
  assert_string_equal(expand(t, "EMPTY"), "");
  assert_string_equal(call(t, "G", 1, "0"), "1");
  assert_string_equal(expand(t, "S"), "\"s\"");
  assert_true(defined(t, "OK"));
  // -D is in force from the first byte on
  assert_string_equal(macro_expand(t, "N", NULL, 0, false, 0, (Loc){0}), "3+4");
  // predefined: the language is C11
  assert_string_equal(expand(t, "__STDC_VERSION__"), "201112L");
}

// The target's macros come before -D, which wins.
static void test_predefined(void **state) {
  (void)state;
  const char *pre[] = {"_OPENMP=201511"}, *defs[] = {"_OPENMP=201811"};
  const char *text = "#ifdef _OPENMP\n#define OMP 1\n#endif\n";
  Src src = {.path = "main.c", .text = text, .len = strlen(text)};
  MacroOptions opt = {pre, NULL, NULL, 1, 0, 0};
  MacroTable *t = macro_table_new(arena, &src, &opt);
  assert_string_equal(expand(t, "_OPENMP"), "201511");
  assert_true(defined(t, "OMP"));
  opt = (MacroOptions){pre, defs, NULL, 1, 1, 0};
  assert_string_equal(expand(macro_table_new(arena, &src, &opt), "_OPENMP"), "201811");
  assert_false(defined(table(""), "_OPENMP")); // none without the target's
  assert_false(defined(table(""), "__cplusplus"));
}

// <...> headers are not read; the standard library's macros are defined at their #include.
static void test_std_headers(void **state) {
  (void)state;
  const char *text = "int a0;\n#include <limits.h>\n#include <stdint.h>\n#include <float.h>\n"
                     "#include <math.h>\n#include <stdbool.h>\n#include <stdlib.h>\n"
                     "#include <omp.h>\n#include <mpi.h>\n#include <vendor/x.h>\n"
                     "#if INT_MAX == 2147483647 && SIZE_MAX > UINT32_MAX && INT_MIN < 0 && true\n"
                     "#define WIDE\n#endif\n"
                     "#undef UINT8_MAX\n#include <inttypes.h>\n" // stdint.h's, already included
                     "int a1;\n";
  MacroTable *t = table(text);
  assert_true(defined(t, "WIDE"));
  assert_string_equal(expand(t, "INT_MAX"), "2147483647");
  assert_string_equal(expand(t, "INT_MIN"), "(-2147483647 - 1)");
  assert_string_equal(expand(t, "SIZE_MAX"), "18446744073709551615UL");
  assert_string_equal(call(t, "UINT64_C", 1, "5"), "5UL");
  assert_string_equal(expand(t, "DBL_EPSILON"), "2.22044604925031308085e-16");
  assert_string_equal(expand(t, "M_PI"), "3.14159265358979323846");
  assert_string_equal(expand(t, "INFINITY"), "INFINITY"); // the lowering knows it
  assert_string_equal(expand(t, "EXIT_FAILURE"), "1");
  assert_string_equal(expand(t, "bool"), "_Bool");
  assert_false(defined(t, "UINT8_MAX"));
  assert_false(defined(t, "omp_get_thread_num"));
  // in force from the #include on
  Loc loc = {"main.c", 1, 1};
  uint32_t a0 = (uint32_t)(strstr(text, "a0") - text), a1 = (uint32_t)(strstr(text, "a1") - text);
  assert_null(macro_expand(t, "INT_MAX", NULL, 0, false, a0, loc));
  assert_string_equal(macro_expand(t, "EXIT_SUCCESS", NULL, 0, false, a1, loc), "0");
  assert_contains(scan_error("#include <tgmath.h>\n", NULL, 0),
                  "main.c:1:1: error: <tgmath.h> is not supported");
  assert_contains(scan_error("#include <math.h\n", NULL, 0), "main.c:1:1: error: #include expects");
  assert_contains(scan_error("#include <>\n", NULL, 0), "main.c:1:1: error: #include expects");
}

static void test_positions(void **state) {
  (void)state;
  const char *text = "int a0;\n#define N 1\nint a1;\n#undef N\nint a2;\n#define N 2\nint a3;\n"
                     "#define F(x) x\nint a4;\n";
  const char *defs[] = {"N=0"};
  MacroTable *t = table_full("main.c", text, defs, 1, NULL, 0);
  uint32_t at[5];
  for (int i = 0; i < 5; i++) {
    char name[4];
    snprintf(name, sizeof name, "a%d", i);
    at[i] = (uint32_t)(strstr(text, name) - text);
  }
  Loc loc = {"main.c", 1, 1};
  assert_string_equal(macro_expand(t, "N", NULL, 0, false, at[0], loc), "0");
  assert_string_equal(macro_expand(t, "N", NULL, 0, false, at[1], loc), "1");
  assert_null(macro_expand(t, "N", NULL, 0, false, at[2], loc));
  assert_false(macro_defined(t, "N", at[2], NULL));
  assert_string_equal(macro_expand(t, "N", NULL, 0, false, at[3], loc), "2");
  const char *arg[] = {"7"};
  assert_null(macro_expand(t, "F", arg, 1, true, at[3], loc));
  assert_string_equal(macro_expand(t, "F", arg, 1, true, at[4], loc), "7");
  // the table at the use is the one that expands nested names too
  MacroTable *u = table("#define A B\nint u0;\n#define B 1\nint u1;\n");
  const char *ut = "#define A B\nint u0;\n#define B 1\nint u1;\n";
  uint32_t u0 = (uint32_t)(strstr(ut, "u0") - ut), u1 = (uint32_t)(strstr(ut, "u1") - ut);
  assert_string_equal(macro_expand(u, "A", NULL, 0, false, u0, loc), "B");
  assert_string_equal(macro_expand(u, "A", NULL, 0, false, u1, loc), "1");
}

// ---- conditionals ----

static void test_conditionals(void **state) {
  (void)state;
  MacroTable *t =
      table("#define X 3\n"
            "#ifdef X\n#define A1\n#else\n#define A0\n#endif\n"
            "#ifndef X\n#define B1\n#else\n#define B0\n#endif\n"
            "#if X == 1\n#define C1\n#elif X == 3\n#define C3\n#elif X > 0\n#define CX\n"
            "#else\n#define CE\n#endif\n"
            "#if !defined(X) || X < 0\n#define D1\n#elif defined Y\n#define DY\n"
            "#else\n#define D0\n#endif\n"
            "#if 0\n#define Z1\n#undef X\n#if 1\n#define Z2\n#else\n#define Z3\n#endif\n"
            "#elif 1\n"
            "# if X\n#  define N1\n# else\n#  define N0\n# endif\n"
            "#endif\n"
            "#undef X\n#ifdef X\n#define E1\n#endif\n");
  const char *yes[] = {"A1", "B0", "C3", "D0", "N1"};
  const char *no[] = {"A0", "B1", "C1", "CX", "CE", "D1", "DY", "Z1", "Z2", "Z3", "N0", "E1", "X"};
  for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
    if (!defined(t, yes[i])) fail_msg("%s should be defined", yes[i]);
  for (size_t i = 0; i < sizeof no / sizeof *no; i++)
    if (defined(t, no[i])) fail_msg("%s should not be defined", no[i]);
}

// Whether "#if expr" holds (X is 3, F(a) is a+1).
static bool holds(const char *expr) {
  char *text = arena_printf(arena,
                            "#define X 3\n#define F(a) a+1\n#define E\n#define Z 0\n"
                            "#if %s\n#define YES\n#endif\n",
                            expr);
  return defined(table(text), "YES");
}

static void test_if_expressions(void **state) {
  (void)state;
  const char *t[] = {
      "1",
      "1+2*3 == 7",
      "(1+2)*3 == 9",
      "10 - 2 - 3 == 5",
      "-1 < 0",
      "-1 > 0u",
      "0x10 == 16",
      "010 == 8",
      "0b101 == 5",
      "'a' == 97",
      "'\\n' == 10",
      "'\\377' < 0",
      "'\\x41' == 65",
      "1 << 4 == 16",
      "-16 >> 2 == -4",
      "!0 && ~0 == -1",
      "7 % 3 == 1",
      "-7 / 2 == -3",
      "(1 ? 2 : 3) == 2",
      "0 ? 1 : 0 ? 2 : 3",
      "(0 ? 1 : 0 ? 2 : 3) == 3",
      "UNKNOWN == 0",
      "0 && 1/0 || 1",
      "1 || 1/0",
      "defined X",
      "defined(X) && X > 2",
      "defined ( F )",
      "F(1) == 2",
      "X*X == 9",
      "__STDC_VERSION__ >= 201112L",
      "(2 || 0) + 1 == 2",
      "18446744073709551615 == -1",
      "0xffffffffffffffff > 0",
      "__has_include(\"x.h\") == 0",
      "(5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6",
      "1 <= 1 && 1 >= 1 && 2 != 3",
      "E 1",
      "-9223372036854775807 - 1 < 0",
      "10L == 10 && 10ull == 10 && 10LL == 10U",
  };
  const char *f[] = {"0",       "X == 2",    "1 && 0", "defined(Y)", "Z",        "UNKNOWN",
                     "-1 < 0u", "0 ? 1 : 0", "!X",     "1 - 1",      "0 && 1/0", "1 ? 0 : 1/0"};
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    if (!holds(t[i])) fail_msg("#if %s should hold", t[i]);
  for (size_t i = 0; i < sizeof f / sizeof *f; i++)
    if (holds(f[i])) fail_msg("#if %s should not hold", f[i]);
}

// ---- the active text ----

static void test_active_text(void **state) {
  (void)state;
  const char *text = "int a;\n"
                     "#if 0\n"
                     "int b; /* c\n"
                     "#endif\n"
                     "*/\n"
                     "#else\n"
                     "int c;\n"
                     "  #  endif // done\n"
                     "#ifdef NOPE\\\n"
                     "  X\n"
                     "int d;\n"
                     "#endif\n"
                     "#define K 1\n"
                     "int e;\n";
  MacroTable *t = table(text);
  const char *act = macro_active_text(t);
  assert_int_equal(strlen(act), strlen(text));
  for (size_t i = 0; text[i]; i++) {
    assert_true((act[i] == '\n') == (text[i] == '\n'));
    assert_true(act[i] == text[i] || act[i] == ' ');
  }
  assert_true(strncmp(act, "int a;\n", 7) == 0);
  assert_non_null(strstr(act, "\nint c;\n"));
  assert_non_null(strstr(act, "\n#define K 1\nint e;\n"));
  assert_null(strstr(act, "int b"));
  assert_null(strstr(act, "int d"));
  assert_null(strstr(act, "#if"));
  assert_null(strstr(act, "#e"));
  assert_null(strstr(act, "endif"));
  assert_null(strstr(act, "X"));
  assert_null(strstr(act, "done"));
  // the blanked text with the spaces squeezed out
  char squeezed[256];
  size_t n = 0;
  for (const char *p = strstr(act, "#define") + 1; *p; p++)
    if (*p != ' ' && *p != '\n') squeezed[n++] = *p;
  squeezed[n] = 0;
  assert_string_equal(squeezed, "defineK1inte;");
  assert_string_equal(macro_active_text(t), act);
}

static void test_directive_scanning(void **state) {
  (void)state;
  MacroTable *t = table("/* #define A1 */\n"
                        "const char *s = \"\\\n#define A2\";\n"
                        "// #define A3 \\\n"
                        "#define A4\n"
                        "  #  define B1 1\n"
                        "/* c */ # /* c */ define B2 2 /* multi\n"
                        "line */ + 3\n"
                        "#define B3 1 + \\\n"
                        "  2\n"
                        "int x; #define A5\n"
                        "char c = '#'; char d = '\"';\n"
                        "#define B4 '\"' // \"\n"
                        "#\n"
                        "#pragma adsoac map\n"
                        "#line 40\n"
                        "#include <stdio.h>\n"
                        "#if 0\n#include \"no_such_header.h\"\n#endif\n"
                        "#ident \"x\"\n");
  const char *no[] = {"A1", "A2", "A3", "A4", "A5"};
  for (size_t i = 0; i < sizeof no / sizeof *no; i++)
    if (defined(t, no[i])) fail_msg("%s should not be defined", no[i]);
  assert_string_equal(expand(t, "B1"), "1");
  assert_string_equal(expand(t, "B2"), "2 + 3");
  assert_string_equal(expand(t, "B3"), "1 + 2");
  assert_string_equal(expand(t, "B4"), "'\"'");
  const char *const *deps;
  assert_int_equal(macro_deps(t, &deps), 0);
}

// ---- includes ----

static char tmp_dir[256];

static void write_file(const char *rel, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", tmp_dir, rel);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static char *tmp_path(const char *rel) {
  return arena_printf(arena, "%s/%s", tmp_dir, rel);
}

static int include_setup(void **state) {
  setup(state);
  strcpy(tmp_dir, "/tmp/adsoac_macro_XXXXXX");
  if (!mkdtemp(tmp_dir)) return -1;
  mkdir(tmp_path("inc"), 0700);
  mkdir(tmp_path("sub"), 0700);
  write_file("local.h", "#ifndef LOCAL_H\n#define LOCAL_H\n#define LOCAL 1\n"
                        "#include \"sub/inner.h\"\n#endif\n");
  write_file("sub/inner.h", "#pragma once\n#define INNER 2\n#include \"sibling.h\"\n");
  write_file("sub/sibling.h", "#define SIBLING 3\n");
  write_file("inc/dir.h", "#define DIR 4\n#include \"../local.h\"\n#undef GONE\n");
  write_file("inc/shadow.h", "#define SHADOW from_inc\n");
  write_file("shadow.h", "#define SHADOW from_next_to_file\n");
  write_file("inc/cond.h", "#if defined(LOCAL) && LOCAL == 1\n#define COND_OK\n#endif\n");
  write_file("self.h", "#include \"self.h\"\n");
  write_file("bad.h", "#define\n");
  write_file("err.h", "\n#if 1\n#error from a header\n#endif\n");
  write_file("miss_in.h", "#define M 1\n#include \"missing.h\"\n");
  return 0;
}

static int include_teardown(void **state) {
  const char *files[] = {"local.h",      "sub/inner.h", "sub/sibling.h", "inc/dir.h",
                         "inc/shadow.h", "shadow.h",    "inc/cond.h",    "self.h",
                         "bad.h",        "err.h",       "miss_in.h",     "main.c"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++)
    remove(tmp_path(files[i]));
  rmdir(tmp_path("inc"));
  rmdir(tmp_path("sub"));
  rmdir(tmp_dir);
  return teardown(state);
}

static void test_includes(void **state) {
  (void)state;
  const char *text = "#define GONE 1\nint a0;\n"
                     "#include \"local.h\"\n"
                     "int a1;\n"
                     "#include \"dir.h\"\n"
                     "#include \"local.h\"\n"
                     "#include \"sub/inner.h\"\n"
                     "#include \"shadow.h\"\n"
                     "#define HDR \"cond.h\"\n#include HDR\n"
                     "#include <stdio.h>\n"
                     "int a2;\n";
  const char *inc[] = {tmp_path("inc")};
  MacroTable *t = table_full(tmp_path("main.c"), text, NULL, 0, inc, 1);
  assert_string_equal(expand(t, "LOCAL"), "1");
  assert_string_equal(expand(t, "INNER"), "2");
  assert_string_equal(expand(t, "SIBLING"), "3");
  assert_string_equal(expand(t, "DIR"), "4");
  assert_string_equal(expand(t, "SHADOW"), "from_next_to_file");
  assert_true(defined(t, "COND_OK"));
  // a header's macros are in force from its #include line on
  Loc loc = {"main.c", 1, 1};
  uint32_t a0 = (uint32_t)(strstr(text, "a0") - text), a1 = (uint32_t)(strstr(text, "a1") - text);
  assert_null(macro_expand(t, "LOCAL", NULL, 0, false, a0, loc));
  assert_string_equal(macro_expand(t, "LOCAL", NULL, 0, false, a1, loc), "1");
  assert_string_equal(macro_expand(t, "GONE", NULL, 0, false, a1, loc), "1");
  assert_false(defined(t, "GONE")); // #undef in dir.h
  const char *const *deps;
  int n = macro_deps(t, &deps);
  const char *want[] = {"local.h",   "sub/inner.h", "sub/sibling.h",
                        "inc/dir.h", "shadow.h",    "inc/cond.h"};
  assert_int_equal(n, 6);
  for (int i = 0; i < n; i++)
    assert_string_equal(deps[i], tmp_path(want[i]));
  // the active text keeps the #include lines
  assert_non_null(strstr(macro_active_text(t), "#include \"local.h\""));
}

static void test_include_errors(void **state) {
  (void)state;
  write_file("main.c", "");
  const char *cases[][2] = {
      {"#include \"self.h\"\n", "self.h:1:1: error: #include nested too deeply"},
      {"#include \"bad.h\"\n", "bad.h:1:1: error: macro name missing"},
      {"\n#include \"err.h\"\n", "err.h:3:1: error: #error from a header"},
      {"#include\n", "main.c:1:1: error: #include expects"},
      // a header found nowhere, or not a file to read, is an error at its #include
      {"\n#include \"missing.h\"\n", "main.c:2:1: error: cannot find \"missing.h\""},
      {"#include \"miss_in.h\"\n", "miss_in.h:2:1: error: cannot find \"missing.h\""},
      {"#include \"/dev/zero\"\n", "main.c:1:1: error: cannot read \"/dev/zero\": not a regular"},
      {"#include \"sub\"\n", "main.c:1:1: error: cannot find \"sub\""}, // a directory
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    Call c = {.path = tmp_path("main.c"), .text = cases[i][0]};
    assert_contains(call_error(&c), cases[i][1]);
  }
}

// ---- errors ----

static void test_directive_errors(void **state) {
  (void)state;
  const char *cases[][2] = {
      {"int x;\n  #define\n", "main.c:2:3: error: macro name missing"},
      {"#define 3 x\n", "main.c:1:1: error: macro names must be identifiers"},
      {"#define defined 1\n", "'defined' cannot be used as a macro name"},
      {"#define F(a,a) a\n", "duplicate parameter 'a'"},
      {"#define F(a b) a\n", "expected ',' or ')'"},
      {"#define F(a) #b\n", "'#' is not followed by a parameter"},
      {"#define F(a) ## a\n", "'##' cannot be at either end"},
      {"#define G a ##\n", "'##' cannot be at either end"},
      {"\n#else\n", "main.c:2:1: error: #else without #if"},
      {"#endif\n", "main.c:1:1: error: #endif without #if"},
      {"#elif 1\n", "#elif without #if"},
      {"#if 1\n#else\n#else\n#endif\n", "main.c:3:1: error: #else after #else"},
      {"#if 1\n#else\n#elif 1\n#endif\n", "#elif after #else"},
      {"int a;\n#ifdef A\n#if 1\n#endif\n", "main.c:2:1: error: unterminated #ifdef"},
      {"#if 0\n#else\n", "main.c:1:1: error: unterminated #if"},
      {"#if 1\n#error stop here\n#endif\n", "main.c:2:1: error: #error stop here"},
      {"#if\n#endif\n", "#if with no expression"},
      {"#if 1/0\n#endif\n", "division by zero in #if"},
      {"#if 1 +\n#endif\n", "#if expression ends too early"},
      {"#if (1\n#endif\n", "expected ')'"},
      {"#if 1 2\n#endif\n", "unexpected '2'"},
      {"#if 1.5\n#endif\n", "invalid integer constant '1.5'"},
      {"#if \"s\"\n#endif\n", "is not valid in a #if expression"},
      {"#if defined\n#endif\n", "operator 'defined' requires an identifier"},
      {"#if defined(X\n#endif\n", "missing ')' after 'defined'"},
      {"#ifdef\n#endif\n", "#ifdef without a macro name"},
      {"#undef 1\n", "#undef without a macro name"},
      {"#define F(a) a\n#if F(1,2)\n#endif\n", "main.c:2:1: error: macro 'F' takes 1 argument"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *err = scan_error(cases[i][0], NULL, 0);
    if (!err) fail_msg("no error for %s", cases[i][0]);
    assert_contains(err, cases[i][1]);
  }
  // limits: exponential expansion, deep nesting
  Buf blow = {0};
  buf_puts(&blow, "#define A0 x\n");
  for (int i = 1; i < 30; i++)
    buf_printf(&blow, "#define A%d A%d A%d\n", i, i - 1, i - 1);
  buf_puts(&blow, "#if A29\n#endif\n");
  assert_contains(scan_error(blow.data, NULL, 0), "macro expansion too large");
  buf_free(&blow);
  Buf deep = {0};
  buf_puts(&deep, "#if ");
  for (int i = 0; i < 5000; i++)
    buf_puts(&deep, "(");
  buf_puts(&deep, "1\n#endif\n");
  assert_contains(scan_error(deep.data, NULL, 0), "#if expression nested too deeply");
  buf_free(&deep);
  // no error: what is not evaluated, and #error in an inactive region
  assert_null(scan_error("#if 0\n#error no\n#if 1/0\n#endif\n#elif 0\n#else\n#endif\n", NULL, 0));
  assert_contains(scan_error("#if 0\n#elif 1/0\n#endif\n", NULL, 0), "main.c:2:1: error: division");
  assert_null(scan_error("#if 1\n#elif 1/0\n#elif\n#endif\n", NULL, 0));
  assert_null(scan_error("#if 0\n#else junk\n#endif junk\n#bogus\n", NULL, 0));
  // -D
  const char *bad[] = {"1X=2"};
  assert_contains(scan_error("", bad, 1), "<command line>: error: macro names must be identifiers");
}

static void test_expansion_errors(void **state) {
  (void)state;
  MacroTable *t = table("#define IDX(i,j) ((i)*m+(j))\n#define V(a, ...) a\n"
                        "#define P(a,b) a ## b\n#define OUTER(x) IDX(x)\n");
  const char *args[] = {"1", "2", "3"};
  assert_contains(expand_error(t, "IDX", args, 1, true),
                  "main.c:9:5: error: macro 'IDX' takes 2 arguments, but 1 was given");
  assert_contains(expand_error(t, "IDX", args, 3, true), "but 3 were given");
  assert_contains(expand_error(t, "V", args, 0, true), "takes at least 1 argument");
  assert_null(expand_error(t, "V", args, 1, true));
  assert_null(expand_error(t, "V", args, 3, true));
  const char *paste[] = {"+", "-"};
  assert_contains(expand_error(t, "P", paste, 2, true), "pasting \"+\" and \"-\"");
  assert_contains(expand_error(t, "OUTER", args, 1, true), "macro 'IDX' takes 2");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_object_like, setup, teardown),
      cmocka_unit_test_setup_teardown(test_function_like, setup, teardown),
      cmocka_unit_test_setup_teardown(test_nested_and_self_reference, setup, teardown),
      cmocka_unit_test_setup_teardown(test_prescan, setup, teardown),
      cmocka_unit_test_setup_teardown(test_standard_examples, setup, teardown),
      cmocka_unit_test_setup_teardown(test_paste_and_variadic, setup, teardown),
      cmocka_unit_test_setup_teardown(test_spacing, setup, teardown),
      cmocka_unit_test_setup_teardown(test_command_line_defines, setup, teardown),
      cmocka_unit_test_setup_teardown(test_predefined, setup, teardown),
      cmocka_unit_test_setup_teardown(test_std_headers, setup, teardown),
      cmocka_unit_test_setup_teardown(test_positions, setup, teardown),
      cmocka_unit_test_setup_teardown(test_conditionals, setup, teardown),
      cmocka_unit_test_setup_teardown(test_if_expressions, setup, teardown),
      cmocka_unit_test_setup_teardown(test_active_text, setup, teardown),
      cmocka_unit_test_setup_teardown(test_directive_scanning, setup, teardown),
      cmocka_unit_test_setup_teardown(test_includes, include_setup, include_teardown),
      cmocka_unit_test_setup_teardown(test_include_errors, include_setup, include_teardown),
      cmocka_unit_test_setup_teardown(test_directive_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_expansion_errors, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
