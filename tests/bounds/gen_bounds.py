#!/usr/bin/env python3
"""tests/bounds/gen_bounds.py OUTDIR: writes OUTDIR/bounds.c (one marked function per index
type, bound type and comparison: a reduction counting the iterations of
`for (T i = lo; i OP x; i++)`) and OUTDIR/bounds_main.c, which compares each one's count with
the same loop run by C for every pair of a list of extreme values (tests/run-bounds.sh).
Pairs where C's loop runs more than 1000 iterations, or overflows its index (undefined for a
signed index; an unsigned one wraps around and runs on), are skipped."""
import os
import sys

IDX = {"int": "INT_MAX", "long": "LONG_MAX", "unsigned": "UINT_MAX", "short": "SHRT_MAX",
       "size_t": "SIZE_MAX", "unsigned char": "UCHAR_MAX"}
BOUNDS = ["int", "long", "unsigned", "size_t", "double", "float", "short", "unsigned long"]
OPS = {"lt": "<", "le": "<="}
LOS = ["0", "1", "-1", "-3", "5", "INT_MAX", "INT_MAX - 2", "INT_MIN", "INT_MIN + 2",
       "LONG_MAX - 2", "LONG_MIN", "65533", "250", "-129", "16777215", "-16777218",
       "9007199254740990", "2147483520"]
XS = ["0", "1", "-1", "2", "7", "-5", "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX", "LONG_MIN",
      "2.5", "-2.5", "0.5", "-0.5", "-0.0", "1e-300", "-1e-300", "NAN", "-INFINITY", "INFINITY",
      "1e30", "-1e30", "4294967296.0", "INT_MAX - 0.5", "INT_MIN + 0.5", "-2147483648.5",
      "65535", "255.5", "-130", "9.5", "3.999999", "16777217.0", "16777218.0", "-16777216.0",
      "9007199254740993.0", "2147483584.0", "2147483648.0"]


def main(out):
    src = ["#include <stddef.h>", ""]
    drv = ["#include <float.h>", "#include <limits.h>", "#include <math.h>", "#include <stddef.h>",
           "#include <stdint.h>", "#include <stdio.h>", "", "static long bad, cases;", ""]
    run = []
    for t, tmax in IDX.items():
        for bt in BOUNDS:
            for on, op in OPS.items():
                name = "n_%s_%s_%s" % (t.replace(" ", "_"), bt.replace(" ", "_"), on)
                src += ["#pragma adsoac grad", "double %s(long lo, %s x) {" % (name, bt),
                        "  double s = 0.0;", "#pragma adsoac reduce(+: s)",
                        "  for (%s i = (%s)lo; i %s x; i++)" % (t, t, op), "    s += 1.0;",
                        "  return s;", "}", ""]
                drv += ["double %s(long lo, %s x);" % (name, bt),
                        "static long %s_c(long lo, %s x) {" % (name, bt), "  long c = 0;",
                        "  for (%s i = (%s)lo; i %s x; i++)" % (t, t, op),
                        "    if (++c > 1000 || i == (%s)%s) return -1;" % (t, tmax), "  return c;", "}"]
                floating = bt in ("double", "float")
                run += ["  for (unsigned a = 0; a < NLO; a++)",
                        "    for (unsigned b = 0; b < NX; b++) {"]
                if floating:
                    run.append("      %s x = (%s)xs[b];" % (bt, bt))
                else:  # only the values the bound's type holds
                    run += ["      long double v = xs[b];",
                            "      if (isnan(v) || v != floorl(v) || v < -9.3e18L || v > 1.9e19L) continue;",
                            "      if (v < 0 ? (%s)-1 > 0 || v < (long double)(%s)(1ULL << (8 * sizeof(%s) - 1)) : v > (long double)(%s)~(%s)0 && (%s)-1 > 0) continue;"
                            % (bt, bt, bt, bt, bt, bt),
                            "      if ((%s)-1 < 0 && v > (long double)((1ULL << (8 * sizeof(%s) - 1)) - 1)) continue;" % (bt, bt),
                            "      %s x = v < 0 ? (%s)(long long)v : (%s)(unsigned long long)v;" % (bt, bt, bt)]
                run += ["      long want = %s_c(los[a], x);" % name,
                        "      if (want < 0) continue;",
                        "      cases++;",
                        "      double got = %s(los[a], x);" % name,
                        "      if (got != (double)want && bad++ < 40)",
                        "        printf(\"FAIL %s: lo=%%ld x=%%.17Lg: C runs %%ld iterations, adsoac %%.0f\\n\", los[a], (long double)x, want, got);" % name,
                        "    }"]
    drv += ["", "static const long los[] = {%s};" % ", ".join("(long)(%s)" % v for v in LOS),
            "static const long double xs[] = {%s};" % ", ".join("(long double)(%s)" % v for v in XS),
            "#define NLO (sizeof los / sizeof *los)", "#define NX (sizeof xs / sizeof *xs)", "",
            "int main(void) {"] + run + [
            '  printf("%ld loops compared with C, %ld differ\\n", cases, bad);', "  return bad != 0;", "}", ""]
    with open(os.path.join(out, "bounds.c"), "w") as f:
        f.write("\n".join(src))
    with open(os.path.join(out, "bounds_main.c"), "w") as f:
        f.write("\n".join(drv))


if __name__ == "__main__":
    main(sys.argv[1])
