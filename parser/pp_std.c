// parser/pp_std.c: #include <...>.  adsoac does not read system headers (the C compiler
// does); what those of the C standard library define as macros, and a marked function may
// use, is defined here from the #include on, with the values of the targets' compilers
// (LP64: gcc, clang and nvcc on Linux, glibc).  A header included again defines nothing again
// (the headers have include guards): an #undef after the first one stays in force.
// Integer limits are numbers, so that #if compares them; the floating constants that C
// cannot spell as a literal (INFINITY, NAN, HUGE_VAL) stand for themselves, and the lowering
// knows them (builtin_constant in lower_expr.c).  Other headers (omp.h, mpi.h, a library's)
// define nothing: a marked function that uses their names is refused where it does.
#include <string.h>

#include "pp.h"

static const char *const limits_h[] = {
    "CHAR_BIT 8", "SCHAR_MIN (-128)", "SCHAR_MAX 127", "UCHAR_MAX 255", "CHAR_MIN (-128)",
    "CHAR_MAX 127", "SHRT_MIN (-32768)", "SHRT_MAX 32767", "USHRT_MAX 65535",
    "INT_MIN (-2147483647 - 1)", "INT_MAX 2147483647", "UINT_MAX 4294967295U",
    "LONG_MIN (-9223372036854775807L - 1)", "LONG_MAX 9223372036854775807L",
    "ULONG_MAX 18446744073709551615UL", "LLONG_MIN (-9223372036854775807LL - 1)",
    "LLONG_MAX 9223372036854775807LL", "ULLONG_MAX 18446744073709551615ULL", NULL};

static const char *const stdint_h[] = {
    "INT8_MIN (-128)", "INT16_MIN (-32767 - 1)", "INT32_MIN (-2147483647 - 1)",
    "INT64_MIN (-9223372036854775807L - 1)", "INT8_MAX 127", "INT16_MAX 32767",
    "INT32_MAX 2147483647", "INT64_MAX 9223372036854775807L", "UINT8_MAX 255",
    "UINT16_MAX 65535", "UINT32_MAX 4294967295U", "UINT64_MAX 18446744073709551615UL",
    "INTPTR_MIN (-9223372036854775807L - 1)", "INTPTR_MAX 9223372036854775807L",
    "UINTPTR_MAX 18446744073709551615UL", "INTMAX_MIN (-9223372036854775807L - 1)",
    "INTMAX_MAX 9223372036854775807L", "UINTMAX_MAX 18446744073709551615UL",
    "PTRDIFF_MIN (-9223372036854775807L - 1)", "PTRDIFF_MAX 9223372036854775807L",
    "SIZE_MAX 18446744073709551615UL", "INT8_C(c) c", "INT16_C(c) c", "INT32_C(c) c",
    "INT64_C(c) c ## L", "UINT8_C(c) c", "UINT16_C(c) c", "UINT32_C(c) c ## U",
    "UINT64_C(c) c ## UL", "INTMAX_C(c) c ## L", "UINTMAX_C(c) c ## UL", NULL};

static const char *const null_h[] = {"NULL ((void *)0)", NULL};

static const char *const stdlib_h[] = {"NULL ((void *)0)", "EXIT_SUCCESS 0", "EXIT_FAILURE 1",
                                       "RAND_MAX 2147483647", NULL};

static const char *const stdio_h[] = {"NULL ((void *)0)", "EOF (-1)", "SEEK_SET 0",
                                      "SEEK_CUR 1", "SEEK_END 2", NULL};

static const char *const stdbool_h[] = {"bool _Bool", "true 1", "false 0",
                                        "__bool_true_false_are_defined 1", NULL};

// (glibc defines M_* unless the compiler is asked for strict ISO C: -std=c11 without
// _DEFAULT_SOURCE; defined here whatever the mode, as most programs that use them expect.)
static const char *const math_h[] = {
    "INFINITY INFINITY", "NAN NAN", "HUGE_VAL HUGE_VAL", "HUGE_VALF HUGE_VALF",
    "M_E 2.7182818284590452354", "M_LOG2E 1.4426950408889634074",
    "M_LOG10E 0.43429448190325182765", "M_LN2 0.69314718055994530942",
    "M_LN10 2.30258509299404568402", "M_PI 3.14159265358979323846",
    "M_PI_2 1.57079632679489661923", "M_PI_4 0.78539816339744830962",
    "M_1_PI 0.31830988618379067154", "M_2_PI 0.63661977236758134308",
    "M_2_SQRTPI 1.12837916709551257390", "M_SQRT2 1.41421356237309504880",
    "M_SQRT1_2 0.70710678118654752440", NULL};

static const char *const float_h[] = {
    "FLT_RADIX 2", "FLT_MANT_DIG 24", "DBL_MANT_DIG 53", "FLT_DIG 6", "DBL_DIG 15",
    "FLT_MIN_EXP (-125)", "DBL_MIN_EXP (-1021)", "FLT_MIN_10_EXP (-37)",
    "DBL_MIN_10_EXP (-307)", "FLT_MAX_EXP 128", "DBL_MAX_EXP 1024", "FLT_MAX_10_EXP 38",
    "DBL_MAX_10_EXP 308", "FLT_MAX 3.40282346638528859812e+38F",
    "DBL_MAX 1.79769313486231570815e+308", "FLT_EPSILON 1.19209289550781250000e-7F",
    "DBL_EPSILON 2.22044604925031308085e-16", "FLT_MIN 1.17549435082228750797e-38F",
    "DBL_MIN 2.22507385850720138309e-308", NULL};

static const struct {
  const char *name;
  const char *const *defs;
} std_headers[] = {
    {"limits.h", limits_h}, {"stdint.h", stdint_h},   {"inttypes.h", stdint_h},
    {"stddef.h", null_h},   {"string.h", null_h},     {"time.h", null_h},
    {"wchar.h", null_h},    {"locale.h", null_h},     {"stdlib.h", stdlib_h},
    {"stdio.h", stdio_h},   {"stdbool.h", stdbool_h}, {"math.h", math_h},
    {"float.h", float_h},
};

// #include <name> (lt: the '<'), taking effect at byte pos of the main file.
void std_include(MacroTable *t, const PpTok *lt, uint32_t pos, Loc loc) {
  Buf b = {.arena = t->a};
  buf_puts(&b, "");
  const PpTok *k = lt->next;
  for (; k && !tok_is(k, ">"); k = k->next)
    buf_puts(&b, k->text);
  if (!k || !b.len) macro_error(t, loc, NULL, "#include expects \"FILENAME\" or <FILENAME>");
  const char *name = b.data;
  if (!strcmp(name, "tgmath.h")) // sqrt(float) would be sqrtf: not what adsoac lowers
    macro_error(t, loc, "include <math.h> and call the f-suffixed functions (sqrtf) on floats",
                "<tgmath.h> is not supported");
  for (size_t i = 0; i < sizeof std_headers / sizeof *std_headers; i++) {
    if (strcmp(name, std_headers[i].name)) continue;
    size_t first = 0; // the first header of these definitions (inttypes.h is stdint.h's)
    while (std_headers[first].defs != std_headers[i].defs)
      first++;
    if (t->std_seen & (1u << first)) return;
    t->std_seen |= 1u << first;
    for (const char *const *d = std_headers[i].defs; *d; d++) {
      PpMacro *m = define_parse(t, tok_list(t->a, *d, strlen(*d)), loc);
      table_set(t, m->name, m, pos);
    }
  }
}
