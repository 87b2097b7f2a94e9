#!/usr/bin/env python3
"""A finite-difference stand-in for `adsoac --target=c`, to check the harness and the test
specs without the translator: for tests/e2e/NAME.c it writes NAME_grad.c whose f calls the
original and whose f_vjp / f_jvp use central differences of the original evaluated in double.

    tests/e2e/selftest/fd_fake.py OUTDIR [NAME ...]
    tests/e2e/run_e2e.py --fake-translator OUTDIR        (run_e2e.py --selftest does both)

Array lengths come from the `array` lines, so every size variable they use must be an int
parameter of the function.  The program is the file a `// e2e: source` line names, as for
run_e2e.py; in the double copy (float programs) the functions of `// e2e: link` libraries are
called as NAME_e2e64, the double build of the library that run_e2e.py links; a static kernel
gets static f, f_vjp, f_jvp, and an array of arrays (A[N][N]) is read and written in a row.
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


def link_functions(lib):
    """The external functions a `// e2e: link` library defines (not static)."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", open(lib).read(), flags=re.S)
    return sorted(set(m.group(2) for m in re.finditer(
        r"^[ \t]*((?:[A-Za-z_]\w*[ \t\*]+)+?)(\w+)\s*\([^;{]*\)\s*\{", text, flags=re.M)
        if "static" not in m.group(1).split()) - {"if", "for", "while", "switch", "return"})


def fake(test):
    funcs = E.parse_program(test)
    src = E.source_of(test)  # (the program: the test file, or the file its `source` line names)
    fl = any(E.any_float(f) for f in funcs)
    out = ["/* Finite-difference stand-in for adsoac's output (harness self-check only). */",
           "#include <math.h>", "#include <stdlib.h>", "#include <string.h>",
           "#define ADSOAC_E2E_REFERENCE 1 /* the original with adsoac's semantics spelled out */"]
    out += ["#define %s %s_orig" % (f.name, f.name) for f in funcs]
    out += ['#include "%s"' % src] + ["#undef %s" % f.name for f in funcs]
    own = []
    if fl:  # a double-precision copy of the original, for the differences
        own = file_scope_names(src, {f.name for f in funcs})
        if E.mpi_ranks(test):  # (its float buffers, now double, go as MPI_DOUBLE)
            out += ["#include <mpi.h>", "#undef MPI_FLOAT", "#define MPI_FLOAT MPI_DOUBLE"]
        out += ["#define float double"] + ["#define %sf %s" % (m, m) for m in E.MATHF]
        out += ["#define %s %s_orig64" % (f.name, f.name) for f in funcs]
        out += ["#define %s %s_d64" % (n, n) for n in own]  # its types and helpers again
        # the libraries it calls (`// e2e: link`): their double build, whose symbols run_e2e
        # renames NAME_e2e64 for the double reference and links whenever a function is float
        lib64 = sorted(set(n for lib in E.links_of(test) for n in link_functions(lib)) - set(own))
        out += ["#define %s %s_e2e64" % (n, n) for n in lib64]
        out += ['#include "%s"' % src, "#undef float"] + ["#undef %sf" % m for m in E.MATHF]
        out += ["#undef %s" % f.name for f in funcs] + ["#undef %s" % n for n in own + lib64]
    else:
        out += ["#define %s_orig64 %s_orig" % (f.name, f.name) for f in funcs]
    for f in funcs:
        out += body(f, set(own))
    return "\n".join(out) + "\n"


class Elem:
    """An active floating-point element set of a parameter: n elements; lv(i) its place in the
    double work copies, bar/dot/src its adjoint, tangent and primal value."""
    def __init__(self, n, lv, bar, dot, src, written):
        self.n, self.lv, self.bar, self.dot, self.src, self.written = n, lv, bar, dot, src, written


def body(f, own64):
    s, P = f.spec, f.params
    ret = f.ret_kind == 1
    arrs = [p for p in P if p.kind == E.FARR]
    sarrs = [p for p in P if p.kind == E.STRUCT and p.ptr]  # arrays of structs
    svals = [p for p in P if p.kind == E.STRUCT and not p.ptr]
    # written int arrays: each evaluation starts from a copy of their initial contents
    iarrs = [p for p in P if p.kind == E.IARR and p.written]
    if any(p.decl for p in iarrs):
        raise E.SpecError("fd_fake: written int arrays of arrays are not supported")
    # the struct types of the double-precision copy
    t64 = lambda p: re.sub(r"\w+", lambda m: m.group(0) + "_d64" if m.group(0) in own64 else m.group(0), p.base)
    floats = lambda p: [fn for fn, _, k in p.fields if k != "int"]
    length = lambda p: (s.structs if p.kind == E.STRUCT else s.arrays)[p.name]["len"]
    # element i of array parameter p's argument a (an array of arrays, A[N][N]: its elements
    # in a row, through a pointer to the first)
    at = lambda p, a, const="": "((%s%s *)%s)[i]" % (const, p.ftype, a) if p.decl else "%s[i]" % a

    # the active elements, and the outputs: (key, count, value after the call, seed source)
    elems, outs = [], []
    for p in P:
        if p.kind == E.FSCAL and p.active:
            elems.append(Elem("1", "s_" + p.name, "*%s_bar" % p.name, p.name + "_dot", p.name, False))
        if p.kind == E.FARR:
            n = "L_" + p.name
            if p.active:
                elems.append(Elem(n, "w_%s[i]" % p.name, at(p, p.name + "_bar"), at(p, p.name + "_dot", "const "),
                                  at(p, p.name, "const "), p.written))
            if p.written:
                outs.append((p.name, n, "o_%s[i]" % p.name, at(p, p.name + "_bar", "const "),
                             at(p, p.name + "_dot")))
        if p.kind == E.STRUCT:
            for fn in floats(p):
                if p.ptr:
                    n, key = "L_" + p.name, "%s_%s" % (p.name, fn)
                    if p.active:
                        elems.append(Elem(n, "w_%s[i].%s" % (p.name, fn), "%s_bar[i].%s" % (p.name, fn),
                                          "%s_dot[i].%s" % (p.name, fn), "%s[i].%s" % (p.name, fn), p.written))
                    if p.written:
                        outs.append((key, n, "o_%s[i].%s" % (p.name, fn), "%s_bar[i].%s" % (p.name, fn),
                                     "%s_dot[i].%s" % (p.name, fn)))
                elif p.active:
                    elems.append(Elem("1", "s_%s.%s" % (p.name, fn), "%s_bar->%s" % (p.name, fn),
                                      "%s_dot.%s" % (p.name, fn), "%s.%s" % (p.name, fn), False))

    def lens():  # the spec's ints that array lengths need (others may use the case's sizes)
        need = " ".join(length(p) for p in arrs + sarrs + iarrs)
        code = ["  long %s = (long)(%s); (void)%s;" % (n, e, n)
                for n, e in s.ints if n not in [p.name for p in P] and re.search(r"\b%s\b" % n, need)]
        return code + ["  long L_%s = (long)(%s);" % (p.name, length(p)) for p in arrs + sarrs + iarrs]

    def setup():
        code = lens()
        for p in arrs:
            code.append("  double *w_%s = malloc((L_%s + 1) * sizeof(double)), *o_%s = "
                        "malloc((L_%s + 1) * sizeof(double));" % ((p.name,) * 4))
            code.append("  for (long i = 0; i < L_%s; i++) w_%s[i] = %s;" % (p.name, p.name, at(p, p.name, "const ")))
        for p in sarrs:
            code.append("  %s *w_%s = malloc((L_%s + 1) * sizeof *w_%s), *o_%s = malloc((L_%s + 1) * "
                        "sizeof *o_%s);" % ((t64(p),) + (p.name,) * 6))
            code.append("  for (long i = 0; i < L_%s; i++) {" % p.name)
            code += ["    w_%s[i].%s = %s[i].%s;" % (p.name, fn, p.name, fn) for fn, _, _ in p.fields]
            code.append("  }")
        for p in iarrs:
            code.append("  __typeof__(*%s) *w_%s = malloc((L_%s + 1) * sizeof *w_%s), *o_%s = "
                        "malloc((L_%s + 1) * sizeof *o_%s);" % ((p.name,) * 7))
            code.append("  for (long i = 0; i < L_%s; i++) w_%s[i] = %s[i];" % ((p.name,) * 3))
        for p in svals:
            code.append("  %s s_%s;" % (t64(p), p.name))
            code += ["  s_%s.%s = %s.%s;" % (p.name, fn, p.name, fn) for fn, _, _ in p.fields]
        code += ["  double s_%s = %s;" % (p.name, p.name) for p in P if p.kind == E.FSCAL]
        return code

    def call64(dst):  # evaluate the double original on the work copies, outputs in o_*
        args = []
        for p in P:
            work = p.kind == E.FARR or (p.kind == E.STRUCT and p.ptr) or p in iarrs
            args.append(("(void *)" if p.decl else "") + ("o_" if p.written else "w_") + p.name if work else
                        "s_" + p.name if p.kind == E.FSCAL or p.kind == E.STRUCT else p.name)
        code = ["    for (long i = 0; i < L_%s; i++) o_%s[i] = w_%s[i];" % ((p.name,) * 3)
                for p in arrs + sarrs + iarrs if p.written]
        c = "%s_orig64(%s)" % (f.name, ", ".join(args))
        return code + ["    %s = %s;" % (dst, c) if ret else "    %s; %s = 0;" % (c, dst)]

    def finish():
        args = ", ".join(p.name for p in P)
        code = ["  %s e2e_ret = %s_orig(%s);" % (f.rtype, f.name, args)] if f.ret_kind else \
               ["  %s_orig(%s);" % (f.name, args)]
        code += ["  free(w_%s), free(o_%s);" % (p.name, p.name) for p in arrs + sarrs + iarrs]
        return code + (["  return e2e_ret;"] if f.ret_kind else []) + ["}"]

    # (a static kernel: f, f_vjp, f_jvp stay static, as adsoac's are: language.md 2)
    proto = lambda w: ("static " if f.static else "") + E.prototypes(f, w)[:-1]
    args = ", ".join(p.name for p in P)
    out = ["", proto("f") + " {", "  %s%s_orig(%s);" % ("return " if f.ret_kind else "", f.name, args), "}"]
    # vjp: one central difference of L = sum(seed * out) + ret_bar * ret per active element
    out += ["", proto("vjp") + " {"] + setup()
    for key, n, _, seed, _ in outs:
        out.append("  double *S_%s = malloc((%s + 1) * sizeof(double));" % (key, n))
        out.append("  for (long i = 0; i < %s; i++) S_%s[i] = %s;" % (n, key, seed))
    # (fd_L, fd_Lp: names no test's parameter has)
    L = ["    fd_L = %s;" % ("ret_bar * r64" if ret else "0")]
    L += ["    for (long i = 0; i < %s; i++) fd_L += S_%s[i] * %s;" % (n, key, o) for key, n, o, _, _ in outs]
    for e in elems:
        out += ["  for (long i = 0; i < %s; i++) {" % e.n,
                "    double v = %s, fd_h = %g * fmax(1.0, fabs(v)), r64, fd_L, fd_Lp;" % (e.lv, H),
                "    %s = v + fd_h;" % e.lv] + call64("r64") + L + ["    fd_Lp = fd_L;", "    %s = v - fd_h;" % e.lv]
        out += call64("r64") + L + ["    %s = v;" % e.lv]
        out += ["    %s %s (fd_Lp - fd_L) / (2 * fd_h);" % (e.bar, "=" if e.written else "+="), "  }"]
    out += ["  free(S_%s);" % key for key, _, _, _, _ in outs] + finish()
    # jvp: central differences of every output along the tangent
    out += ["", proto("jvp") + " {"] + setup()
    out += ["  double *Yp_%s = malloc((%s + 1) * sizeof(double));" % (key, n) for key, n, _, _, _ in outs]
    out += ["  double fd_h = %g, rp = 0, rm = 0;" % H, "  for (int sg = 1; sg >= -1; sg -= 2) {"]
    for e in elems:
        out.append("    for (long i = 0; i < %s; i++) %s = %s + sg * fd_h * %s;" % (e.n, e.lv, e.src, e.dot))
    out += call64("double r64") + ["    if (sg == 1) rp = r64; else rm = r64;"]
    out += ["    for (long i = 0; sg == 1 && i < %s; i++) Yp_%s[i] = %s;" % (n, key, o)
            for key, n, o, _, _ in outs] + ["  }"]
    out += ["  for (long i = 0; i < %s; i++) %s = (Yp_%s[i] - %s) / (2 * fd_h);" % (n, dot, key, o)
            for key, n, o, _, dot in outs]
    out += ["  *ret_dot = (rp - rm) / (2 * fd_h);"] if ret else ["  (void)rp, (void)rm;"]
    out += ["  free(Yp_%s);" % key for key, _, _, _, _ in outs] + finish()
    return out


def main(outdir, names):
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        with open(os.path.join(outdir, name + "_grad.c"), "w") as fh:
            fh.write(fake(os.path.join(E.HERE, name + ".c")))


if __name__ == "__main__":
    names = sys.argv[2:] or sorted(f[:-2] for f in os.listdir(E.HERE) if f.endswith(".c"))
    main(sys.argv[1], names)
