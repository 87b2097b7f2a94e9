#!/usr/bin/env python3
"""A finite-difference stand-in for `adsoac --target=c`, to check the harness and the test
specs without the translator: for tests/e2e/NAME.c it writes NAME_grad.c whose f calls the
original and whose f_vjp / f_jvp use central differences of the original evaluated in double.

    tests/e2e/selftest/fd_fake.py OUTDIR [NAME ...]
    tests/e2e/run_e2e.py --fake-translator OUTDIR        (run_e2e.py --selftest does both)

Array lengths come from the `array` lines, so every size variable they use must be an int
parameter of the function.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import run_e2e as E  # noqa: E402

H = 1e-6


def file_scope_names(src, skip):
    """Typedef names, struct tags and functions the file defines (a second inclusion of the
    file must rename them)."""
    text = open(src).read()
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    names = set(re.findall(r"\btypedef\b[^;{]*(?:\{[^}]*\})?[^;]*?\b(\w+)\s*;", text))
    names |= set(re.findall(r"\bstruct\s+(\w+)\s*\{", text))
    names |= set(re.findall(r"^[ \t]*(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w \t\*]*?\b(\w+)\s*\([^;{]*\)\s*\{",
                            text, flags=re.M))
    return sorted(n for n in names - skip if n not in ("if", "for", "while", "switch", "return"))


def fake(src):
    funcs = E.parse_program(src)
    fl = any(E.any_float(f) for f in funcs)
    out = ["/* Finite-difference stand-in for adsoac's output (harness self-check only). */",
           "#include <math.h>", "#include <stdlib.h>", "#include <string.h>",
           "#define ADSOAC_E2E_REFERENCE 1 /* the original with adsoac's semantics spelled out */"]
    out += ["#define %s %s_orig" % (f.name, f.name) for f in funcs]
    out += ['#include "%s"' % src] + ["#undef %s" % f.name for f in funcs]
    if fl:  # a double-precision copy of the original, for the differences
        own = file_scope_names(src, {f.name for f in funcs})
        out += ["#define float double"] + ["#define %sf %s" % (m, m) for m in E.MATHF]
        out += ["#define %s %s_orig64" % (f.name, f.name) for f in funcs]
        out += ["#define %s %s_d64" % (n, n) for n in own]  # its types and helpers again
        out += ['#include "%s"' % src, "#undef float"] + ["#undef %sf" % m for m in E.MATHF]
        out += ["#undef %s" % f.name for f in funcs] + ["#undef %s" % n for n in own]
    else:
        out += ["#define %s_orig64 %s_orig" % (f.name, f.name) for f in funcs]
    for f in funcs:
        out += body(f)
    return "\n".join(out) + "\n"


def body(f):
    s, P = f.spec, f.params
    ret = f.ret_kind == 1
    arrs = [p for p in P if p.kind == E.FARR]
    if any(p.kind == E.IARR and p.written for p in P):
        raise E.SpecError("fd_fake: written int arrays are not supported")

    def lens():  # the spec's ints that array lengths need (others may use the case's sizes)
        need = " ".join(s.arrays[p.name]["len"] for p in arrs)
        code = ["  long %s = (long)(%s); (void)%s;" % (n, e, n)
                for n, e in s.ints if n not in [p.name for p in P] and re.search(r"\b%s\b" % n, need)]
        return code + ["  long L_%s = (long)(%s);" % (p.name, s.arrays[p.name]["len"]) for p in arrs]

    def setup():
        code = lens()
        for p in arrs:
            code.append("  double *w_%s = malloc((L_%s + 1) * sizeof(double)), *o_%s = "
                        "malloc((L_%s + 1) * sizeof(double));" % ((p.name,) * 4))
            code.append("  for (long i = 0; i < L_%s; i++) w_%s[i] = %s[i];" % ((p.name,) * 3))
        code += ["  double s_%s = %s;" % (p.name, p.name) for p in P if p.kind == E.FSCAL]
        return code

    def call64(dst):  # evaluate the double original on the work copies, outputs in o_*
        args = []
        for p in P:
            args.append({E.FSCAL: "s_" + p.name, E.FARR: ("o_" if p.written else "w_") + p.name}
                        .get(p.kind, p.name))
        code = ["    for (long i = 0; i < L_%s; i++) o_%s[i] = w_%s[i];" % ((p.name,) * 3)
                for p in arrs if p.written]
        c = "%s_orig64(%s)" % (f.name, ", ".join(args))
        return code + ["    %s = %s;" % (dst, c) if ret else "    %s; %s = 0;" % (c, dst)]

    def finish():
        args = ", ".join(p.name for p in P)
        code = ["  %s e2e_ret = %s_orig(%s);" % (f.rtype, f.name, args)] if f.ret_kind else \
               ["  %s_orig(%s);" % (f.name, args)]
        code += ["  free(w_%s), free(o_%s);" % (p.name, p.name) for p in arrs]
        return code + (["  return e2e_ret;"] if f.ret_kind else []) + ["}"]

    def elems(p):  # (count, lvalue of element i in the work copies)
        return ("1", "s_" + p.name) if p.kind == E.FSCAL else ("L_" + p.name, "w_%s[i]" % p.name)

    proto = lambda w: E.prototypes(f, w)[:-1]
    args = ", ".join(p.name for p in P)
    out = ["", proto("f") + " {", "  %s%s_orig(%s);" % ("return " if f.ret_kind else "", f.name, args), "}"]
    # vjp: one central difference of L = sum(seed * out) + ret_bar * ret per active element
    out += ["", proto("vjp") + " {"] + setup()
    for p in arrs:
        if p.written:
            out.append("  double *S_%s = malloc((L_%s + 1) * sizeof(double));" % (p.name, p.name))
            out.append("  for (long i = 0; i < L_%s; i++) S_%s[i] = %s_bar[i];" % ((p.name,) * 3))
    L = ["    L = %s;" % ("ret_bar * r64" if ret else "0")]
    L += ["    for (long i = 0; i < L_%s; i++) L += S_%s[i] * o_%s[i];" % ((p.name,) * 3)
          for p in arrs if p.written]
    for p in P:
        if not p.active:
            continue
        n, lv = elems(p)
        bar = "*%s_bar" % p.name if p.kind == E.FSCAL else "%s_bar[i]" % p.name
        out += ["  for (long i = 0; i < %s; i++) {" % n,
                "    double v = %s, fd_h = %g * fmax(1.0, fabs(v)), r64, L, Lp;" % (lv, H),
                "    %s = v + fd_h;" % lv] + call64("r64") + L + ["    Lp = L;", "    %s = v - fd_h;" % lv]
        out += call64("r64") + L + ["    %s = v;" % lv]
        out += ["    %s %s (Lp - L) / (2 * fd_h);" % (bar, "=" if p.written else "+="), "  }"]
    out += ["  free(S_%s);" % p.name for p in arrs if p.written] + finish()
    # jvp: central differences of every output along the tangent
    out += ["", proto("jvp") + " {"] + setup()
    out += ["  double *Yp_%s = malloc((L_%s + 1) * sizeof(double));" % (p.name, p.name)
            for p in arrs if p.written]
    out += ["  double fd_h = %g, rp = 0, rm = 0;" % H, "  for (int sg = 1; sg >= -1; sg -= 2) {"]
    for p in P:
        if p.active:
            n, lv = elems(p)
            d = "%s_dot" % p.name + ("" if p.kind == E.FSCAL else "[i]")
            src = p.name + ("" if p.kind == E.FSCAL else "[i]")
            out.append("    for (long i = 0; i < %s; i++) %s = %s + sg * fd_h * %s;" % (n, lv, src, d))
    out += call64("double r64") + ["    if (sg == 1) rp = r64; else rm = r64;"]
    out += ["    for (long i = 0; sg == 1 && i < L_%s; i++) Yp_%s[i] = o_%s[i];" % ((p.name,) * 3)
            for p in arrs if p.written] + ["  }"]
    out += ["  for (long i = 0; i < L_%s; i++) %s_dot[i] = (Yp_%s[i] - o_%s[i]) / (2 * fd_h);"
            % ((p.name,) * 4) for p in arrs if p.written]
    out += ["  *ret_dot = (rp - rm) / (2 * fd_h);"] if ret else ["  (void)rp, (void)rm;"]
    out += ["  free(Yp_%s);" % p.name for p in arrs if p.written] + finish()
    return out


def main(outdir, names):
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        with open(os.path.join(outdir, name + "_grad.c"), "w") as fh:
            fh.write(fake(os.path.join(E.HERE, name + ".c")))


if __name__ == "__main__":
    names = sys.argv[2:] or sorted(f[:-2] for f in os.listdir(E.HERE) if f.endswith(".c"))
    main(sys.argv[1], names)
