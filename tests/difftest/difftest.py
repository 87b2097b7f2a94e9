#!/usr/bin/env python3
"""Differential tester: random programs inside the contract, checked end to end.

Each program is a marked function of one or two annotated loops (map, reduce, scan, hist with
every operator), whose bodies mix branches (if/else, nested ifs, ?:) around reads of every
kind (the loop's own element, a loop-invariant element p[3] or p[k], an indirect element
x[idx[i]], a free scalar, a local, a struct field), math calls, helper functions, sequential
inner loops and nested annotated reductions; with inputs that reach the special cases (exact
zeros for *, ties for min/max, bins outside the section, n = 0, 1 and odd sizes).  Each is
checked by tests/e2e/run_e2e.py: f against the original C, f_vjp against central finite
differences of the original, f_jvp against finite differences and <jvp(u), w> = <u, vjp(w)>,
adsoac's output compiled with -Wall -Werror; with --nvcc the CUDA output is compiled too.

A refusal (adsoac exits 1 with a diagnostic) is not a failure: it is counted and summarized.
Anything else (a wrong number, an internal error, output that does not compile) fails, and the
program is kept in --keep DIR (default: the build directory's failed/).

  tests/difftest/difftest.py --adsoac build/adsoac [--seed S] [--count N] [-j J]
                             [--nvcc NVCC --nvcc-every K] [--keep DIR] [--print-only]
  tests/difftest/difftest.py --adsoac build/adsoac --shrink FAILED.c
                             deletes lines while it still fails: FAILED.min.c

The last line printed is `N passed, M failed`; the exit status is 1 if anything failed.
"""
import argparse
import concurrent.futures
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "e2e"))
import run_e2e  # noqa: E402

NP = 8    # length of p, the parameter array read at loop-invariant indices
# declared operators (language.md §4): commutative with an inverse (the invertible rule),
# commutative without one (the general rules), and a non-commutative struct (a linear
# recurrence: the general scan rule)
OPERATORS = {
    "plus": ["static double minus(double a, double b) { return a - b; }",
             "#pragma adsoac operator neutral(0.0) commutative inverse(minus)",
             "static double plus(double a, double b) { return a + b; }"],
    "lse": ["#pragma adsoac operator neutral(-1e30) commutative",
            "static double lse(double a, double b) {",
            "  double m = fmax(a, b);",
            "  return m + log(exp(a - m) + exp(b - m));",
            "}"],
    "lin": ["typedef struct { double a, b; } Lin; // x -> a*x + b",
            "#pragma adsoac operator neutral((Lin){1.0, 0.0})",
            "static Lin lin(Lin f, Lin g) { return (Lin){g.a * f.a, g.a * f.b + g.b}; }"],
}
NB = 5    # bins of h
K = 3     # the int parameter k (an invariant index into p)


class Gen:
    """One random program."""

    def __init__(self, rng, name):
        self.r, self.name = rng, name
        self.helpers = []      # helper function definitions
        self.lines = []
        self.ntmp = 0
        self.uses_struct = False
        self.ops = []          # declared operators used

    # ---- expressions ----

    def const(self):
        return self.r.choice(["0.5", "1.5", "2.0", "0.25", "3.0", "-1.0", "0.0"])

    def leaf(self, ctx):
        """A read: own element, invariant element, indirect element, free scalar, local."""
        i, opts = ctx["i"], []
        opts += ["x[%s]" % i] * 4
        opts += ["p[%d]" % self.r.randrange(NP), "p[k]"] * 2
        opts += ["x[idx[%s]]" % i]
        opts += ["a"] * 2
        opts += ["(double)%s" % i] if self.r.random() < 0.1 else []
        if ctx.get("j"):
            j = ctx["j"]
            opts += ["p[%s]" % j, "x[%s]" % i]
        opts += ctx["locals"] * 3
        opts += [self.const()]
        return self.r.choice(opts)

    def expr(self, ctx, depth=2):
        if depth <= 0 or self.r.random() < 0.25:
            return self.leaf(ctx)
        e1, e2 = self.expr(ctx, depth - 1), self.expr(ctx, depth - 1)
        k = self.r.randrange(16)
        if k < 3:
            return "%s * %s" % (e1, e2)
        if k < 5:
            return "(%s + %s)" % (e1, e2)
        if k < 6:
            return "(%s - %s)" % (e1, e2)
        if k < 7:
            return "%s(%s)" % (self.r.choice(["sin", "cos", "tanh", "atan", "erf"]), e1)
        if k < 8:
            return self.r.choice(["sqrt(1.0 + %s * %s)" % (e1, e1), "log(1.0 + %s * %s)" % (e1, e1),
                                  "exp(0.5 * sin(%s))" % e1, "%s / (2.0 + cos(%s))" % (e1, e2)])
        if k < 9:
            return "%s(%s, %s)" % (self.r.choice(["fmax", "fmin"]), e1, e2)
        if k < 10:
            return "fabs(%s)" % e1
        if k < 12:  # a read under a branch of ?:
            return "(%s ? %s : %s)" % (self.cond(ctx), e1, e2)
        if k < 13 and self.helpers:
            return "%s(%s, %s)" % (self.r.choice(self.helpers)[0], e1, e2)
        if k < 14 and ctx.get("struct"):
            return "%s.%s" % (ctx["struct"], self.r.choice(["u", "v"]))
        return "%s * %s" % (self.const(), e1)

    def body_expr(self, ctx):
        """The expression an update or output is made of: it uses the locals defined so far."""
        e = self.expr(ctx)
        for t in ctx["locals"]:
            if self.r.random() < 0.7:
                e = self.r.choice(["%s * %s", "(%s + %s)"]) % (t, e)
        return e

    def cond(self, ctx):
        # thresholds that no input equals (the zeros and ties of the fills below): a branch on
        # an exact tie is a kink, and several kinks along one direction defeat the
        # directional differences of the jvp check
        i, c = ctx["i"], self.r.choice(["0.1", "0.3", "-0.6", "-0.05"])
        opts = ["x[%s] > %s" % (i, c), "x[idx[%s]] > %s" % (i, c), "p[1] >= %s" % c,
                "a > %s" % c, "%s %% 2 == 0" % i, "%s == 0" % i, "%s < 0" % i, "%s >= 0" % i,
                "%s > %s" % (self.expr(ctx, 1), c), "n > 3", "p[k] < %s" % c]
        if ctx["locals"]:
            opts.append("%s > %s" % (self.r.choice(ctx["locals"]), c))
        return self.r.choice(opts)

    # ---- statements ----

    def tmp(self):
        self.ntmp += 1
        return "t%d" % self.ntmp

    def emit(self, ind, s):
        self.lines.append("  " * ind + s)

    def locals_block(self, ctx, ind, n):
        """n statements defining locals (with branches, inner loops, nested reductions)."""
        for _ in range(n):
            k, t = self.r.randrange(10), self.tmp()
            if k < 3:
                self.emit(ind, "double %s = %s;" % (t, self.expr(ctx)))
            elif k < 6:
                self.emit(ind, "double %s = %s;" % (t, self.r.choice(["0.0", self.leaf(ctx)])))
                self.emit(ind, "if (%s) {" % self.cond(ctx))
                if self.r.random() < 0.3:  # nested if
                    self.emit(ind + 1, "if (%s) %s = %s;" % (self.cond(ctx), t, self.expr(ctx)))
                else:
                    self.emit(ind + 1, "%s = %s;" % (t, self.expr(ctx)))
                if self.r.random() < 0.5:
                    self.emit(ind, "} else {")
                    self.emit(ind + 1, "%s = %s;" % (t, self.expr(ctx)))
                self.emit(ind, "}")
            elif k < 8:  # a sequential inner loop, a branch inside
                j = "j%d" % self.ntmp
                self.emit(ind, "double %s = 0.0;" % t)
                self.emit(ind, "for (int %s = 0; %s < 3; %s++) {" % (j, j, j))
                c = dict(ctx, j=j)
                if self.r.random() < 0.6:
                    self.emit(ind + 1, "if (%s) %s += %s;" % (self.cond(c), t, self.expr(c, 1)))
                else:
                    self.emit(ind + 1, "%s += p[%s] * %s;" % (t, j, self.expr(c, 1)))
                self.emit(ind, "}")
            elif k < 9 and not ctx.get("nested"):  # a nested annotated reduction
                j = "j%d" % self.ntmp
                op = self.r.choice(["+", "+", "max", "*"])
                init = {"+": "0.0", "*": "1.0", "max": "-1e3"}[op]
                self.emit(ind, "double %s = %s;" % (t, init))
                self.emit(ind, "#pragma adsoac reduce(%s: %s)" % (op, t))
                self.emit(ind, "for (int %s = 0; %s < 4; %s++) {" % (j, j, j))
                c = dict(ctx, j=j, nested=True)
                e = self.expr(c, 1)
                upd = {"+": "%s += %s;" % (t, e), "*": "%s *= (1.0 + 0.5 * %s);" % (t, e),
                       "max": "%s = fmax(%s, %s);" % (t, t, e)}[op]
                if self.r.random() < 0.4:
                    upd = "if (%s) %s" % (self.cond(c), upd)
                self.emit(ind + 1, upd)
                self.emit(ind, "}")
            else:  # a struct local
                self.uses_struct = True
                self.emit(ind, "Pair %s = {%s, %s};" % (t, self.expr(ctx, 1), self.expr(ctx, 1)))
                ctx["struct"] = t
                continue
            ctx["locals"].append(t)

    def helper(self):
        name = "hf%d" % (len(self.helpers) + 1)
        body = self.r.choice(["u * sin(v) + 0.5 * v", "u > v ? u * v : u - v",
                              "tanh(u) * (1.0 + v * v)", "fmax(u, v) + 0.25 * u"])
        self.helpers.append((name, "static double %s(double u, double v) { return %s; }" % (name, body)))

    def loop(self, kind, op, ind, state):
        """One annotated loop over [0, n); state: what earlier loops produced."""
        r, i = self.r, "i"
        ctx = {"i": i, "locals": []}
        if kind == "map":
            self.emit(ind, "#pragma adsoac map")
        elif kind == "reduce":
            s = "s%d" % (len(state["scalars"]) + 1)
            init = {"+": "0.0", "*": "1.0", "max": "-1e3", "min": "1e3", "plus": "0.0",
                    "lse": "-1e30", "lin": "(Lin){1.0, 0.0}"}[op]
            if r.random() < 0.3 and op != "lin":
                init = r.choice(["a", "p[2]"])  # the initial value may win (min/max ties)
            self.emit(ind, "%s %s = %s;" % ("Lin" if op == "lin" else "double", s, init))
            self.emit(ind, "#pragma adsoac reduce(%s: %s)" % (op, s))
        elif kind == "scan":
            s = "acc%d" % (len(state["scalars"]) + 1)
            init = {"+": "0.0", "*": "1.0", "max": "-1e3", "min": "1e3", "plus": "0.0",
                    "lse": "-1e30", "lin": "(Lin){1.0, 0.0}"}[op]
            if r.random() < 0.3:
                init = "(Lin){a, 0.5}" if op == "lin" else "a"
            self.emit(ind, "%s %s = %s;" % ("Lin" if op == "lin" else "double", s, init))
            self.emit(ind, "#pragma adsoac scan(%s: %s)" % (op, s))
        else:
            self.emit(ind, "#pragma adsoac hist(%s: h[0:%d])" % (op, NB))
        self.emit(ind, "for (int %s = 0; %s < n; %s++) {" % (i, i, i))
        if state["y_written"] and r.random() < 0.5:
            ctx["locals"].append("y[%s]" % i)  # the earlier loop's output
        self.locals_block(ctx, ind + 1, r.randrange(0, 3))
        b = ind + 1
        if kind == "map":
            k = r.randrange(6)
            if k == 0:
                self.emit(b, "y[%s] = %s;" % (i, self.body_expr(ctx)))
            elif k == 1:
                self.emit(b, "if (%s) y[%s] = %s;" % (self.cond(ctx), i, self.body_expr(ctx)))
                self.emit(b, "else y[%s] = %s;" % (i, self.body_expr(ctx)))
            elif k == 2:
                self.emit(b, "y[%s] = y[%s] + %s;" % (i, i, self.body_expr(ctx)))
            elif k == 3:
                self.emit(b, "if (%s) y[%s] = %s;" % (self.cond(ctx), i, self.body_expr(ctx)))
            elif k == 4:
                self.emit(b, "y[%s] = (%s) ? %s : %s;" % (i, self.cond(ctx), self.body_expr(ctx), self.body_expr(ctx)))
            else:  # the element updated step by step, some steps under branches
                for _ in range(r.randrange(2, 4)):
                    upd = "y[%s] = y[%s] %s %s;" % (i, i, r.choice("+*"), self.expr(ctx, 1))
                    if r.random() < 0.6:
                        upd = "if (%s) %s" % (self.cond(ctx), upd)
                    self.emit(b, upd)
            state["y_written"] = True
        elif kind == "reduce":
            e = self.body_expr(ctx)
            if op == "*":
                e = r.choice([e, "(1.0 + 0.5 * %s)" % e])
            upd = {"+": "%s += %s;", "*": "%s *= %s;", "plus": "%s = plus(%s, %s);",
                   "lse": "%s = lse(%s, %s);"}.get(op)
            if op == "lin":  # a contraction, so that 33 steps stay of order one
                upd = "%s = lin(%s, (Lin){0.5 + 0.4 * tanh(%s), %s});" % (s, s, e, self.expr(ctx, 1))
            elif upd and op in ("plus", "lse"):
                upd = upd % (s, s, e)
            elif upd:
                upd = upd % (s, e)
            elif r.random() < 0.5:
                upd = "%s = %s(%s, %s);" % (s, "fmax" if op == "max" else "fmin", s, e)
            else:
                v = self.tmp()
                self.emit(b, "double %s = %s;" % (v, e))
                upd = "if (%s %s %s) %s = %s;" % (v, ">" if op == "max" else "<", s, s, v)
            if r.random() < 0.4:
                upd = "if (%s) { %s }" % (self.cond(ctx), upd)
            self.emit(b, upd)
            state["scalars"].append(s)
            if op == "lin":
                state["lin"].add(s)
        elif kind == "scan":
            e = self.body_expr(ctx)
            upd = {"+": "%s += %s;" % (s, e), "*": "%s *= %s;" % (s, e),
                   "max": "%s = fmax(%s, %s);" % (s, s, e), "min": "%s = fmin(%s, %s);" % (s, s, e),
                   "plus": "%s = plus(%s, %s);" % (s, s, e), "lse": "%s = lse(%s, %s);" % (s, s, e),
                   "lin": "%s = lin(%s, (Lin){0.5 + 0.4 * tanh(%s), %s});" % (s, s, e, self.expr(ctx, 1))}[op]
            if r.random() < 0.3:
                upd = "if (%s) { %s }" % (self.cond(ctx), upd)
            v = s + r.choice([".a", ".b"]) if op == "lin" else s
            read = "y[%s] = %s;" % (i, r.choice([v, "%s * %s" % (v, self.leaf(ctx)), "%s + %s" % (v, self.leaf(ctx))]))
            if r.random() < 0.3:  # exclusive: read before the update
                self.emit(b, read)
                self.emit(b, upd)
            else:
                self.emit(b, upd)
                self.emit(b, read)
            state["y_written"] = True
            state["scalars"].append(s)
            if op == "lin":
                state["lin"].add(s)
        else:
            state["h_written"] = True
            bins = r.choice(["bin[%s]" % i, "idx[%s] %% %d" % (i, NB), "%s %% %d" % (i, NB)])
            for u in range(r.choice([1, 1, 2])):  # two updates of one bin in one iteration
                e = self.body_expr(ctx)
                if op == "*":
                    e = r.choice([e, "(1.0 + 0.5 * %s)" % e])
                bv = "b%d" % self.ntmp
                self.ntmp += 1
                self.emit(b, "int %s = %s;" % (bv, bins))
                upd = {"+": "h[%s] += %s;" % (bv, e), "*": "h[%s] *= %s;" % (bv, e),
                       "max": "h[%s] = fmax(h[%s], %s);" % (bv, bv, e),
                       "min": "h[%s] = fmin(h[%s], %s);" % (bv, bv, e),
                       "plus": "h[%s] = plus(h[%s], %s);" % (bv, bv, e),
                       "lse": "h[%s] = lse(h[%s], %s);" % (bv, bv, e)}[op]
                guard = r.random() < 0.5
                if guard:
                    upd = "if (%s >= 0 && %s < %d) %s" % (bv, bv, NB, upd)
                if r.random() < 0.3:
                    upd = "if (%s) { %s }" % (self.cond(ctx), upd)
                if not guard:  # plain C must skip the bins outside the section too
                    self.emit(0, "#ifdef ADSOAC_E2E_REFERENCE")
                    self.emit(b, "if (%s >= 0 && %s < %d)" % (bv, bv, NB))
                    self.emit(0, "#endif")
                self.emit(b, upd)
        self.emit(ind, "}")

    def program(self):
        r = self.r
        for _ in range(r.choice([0, 0, 1, 2])):
            self.helper()
        state = {"scalars": [], "y_written": False, "h_written": False, "lin": set()}
        kinds = [("map", None)] * 3 + [("reduce", o) for o in "+ * max min".split()] + \
                [("scan", o) for o in "+ * max min".split()] + [("hist", o) for o in "+ * max min".split()]
        if r.random() < 0.25:  # a declared operator
            op = r.choice(["plus", "lse", "lin"])
            self.ops.append(op)
            kinds = [(k, op) for k in ("reduce", "scan") + (("hist",) if op != "lin" else ())]
        loops = [r.choice(kinds) for _ in range(r.choice([1, 1, 2]))]
        # a time loop around the annotated loops (checkpointed in reverse mode, maybe
        # strip-mined): its steps read what the previous step wrote
        steps = r.random() < 0.25
        ind = 1
        if steps:
            self.emit(1, "double tot = 0.0;")
            if r.random() < 0.4:
                self.emit(1, "#pragma adsoac stripmine(%d)" % r.choice([2, 3]))
            self.emit(1, "for (int t = 0; t < steps; t++) {")
            ind = 2
        for kind, op in loops:
            self.loop(kind, op, ind, state)
        state["scalars"] = [v + ".b" if v in state["lin"] else v for v in state["scalars"]]
        if steps:
            if state["scalars"]:
                self.emit(2, "tot += %s;" % " + ".join(state["scalars"]))
            self.emit(1, "}")
            state["scalars"] = ["tot"] if state["scalars"] else []
        ret = "void"
        if state["scalars"]:
            ret = "double"
            self.emit(1, "return %s;" % " + ".join(state["scalars"]) if r.random() < 0.7 else
                      "return %s * %s;" % (state["scalars"][0], "a"))
        zeros = r.random() < 0.4   # exact zeros (the * rules)
        ties = r.random() < 0.3    # repeated values (min/max ties)
        xfill = "fill(i % 4 == 1 ? 0.0 : r)" if zeros else "fill(floor(r * 3.0) / 2.0 + 0.125)" if ties else ""
        hfill = "fill(i == 2 ? 0.0 : r)" if zeros else "fill(floor(r * 2.0) / 2.0 + 0.125)" if ties else ""
        head = ["// %s: a random program of tests/difftest/difftest.py" % self.name,
                "// e2e: sizes n=0,1,2,7,33",
                "// e2e: seeds 2",
                "// e2e: int k = %d" % K,
                "// e2e: int steps = 3",
                "// e2e: array x[n] range(-1,1) %s" % xfill,
                "// e2e: array p[%d] range(-1,1) %s" % (NP, "fill(floor(r * 3.0) / 2.0 + 0.125)" if ties else ""),
                "// e2e: array idx[n] range(0,n)",
                "// e2e: array bin[n] range(-1,%d)" % (NB + 1),
                "// e2e: array y[n] range(-1,1)",
                "// e2e: array h[%d] range(-1,1) %s" % (NB, hfill),
                "// e2e: scalar a range(-1,1)",
                "// e2e: tol grad_rtol=1e-5 grad_atol=1e-6",
                "#include <math.h>", ""]
        if self.uses_struct:
            head += ["typedef struct { double u, v; } Pair;", ""]
        for op in dict.fromkeys(self.ops):
            head += OPERATORS[op] + [""]
        head += [h for _, h in self.helpers] + ([""] if self.helpers else [])
        head += ["#pragma adsoac grad",
                 "%s %s(int n, int k, int steps, double a, const double *x, const double *p, const int *idx,"
                 % (ret, self.name),
                 "    const int *bin, %sdouble *y, %sdouble *h) {"
                 % ("" if state["y_written"] else "const ", "" if state["h_written"] else "const ")]
        text = "\n".join([l.rstrip() for l in head] + self.lines + ["}", ""])
        if r.random() < 0.2:  # single precision (the harness loosens its tolerances)
            text = text.replace("// e2e: tol grad_rtol=1e-5 grad_atol=1e-6\n", "")
            text = text.replace("double", "float").replace("(float)i", "(float)i")
        return text


def generate(seed, count):
    out = []
    for k in range(count):
        name = "d%d_%d" % (seed, k)
        out.append((name, Gen(random.Random("%d/%d" % (seed, k)), name).program()))
    return out


def shrink(args, path, out):
    """Deletes lines of a failing program while it still fails the same way (a wrong number,
    not a refusal or a compile error); writes the smallest to out."""
    lines = open(path).read().split("\n")
    name = os.path.basename(path)[:-2]
    work = os.path.join(args.build_dir, "shrink")
    os.makedirs(work, exist_ok=True)
    args.src_dir = work

    def fails(ls):
        with open(os.path.join(work, name + ".c"), "w") as fh:
            fh.write("\n".join(ls))
        try:
            run_e2e.run_c(args, name)
            return False
        except run_e2e.Fail as e:
            return "checks failed" in str(e) or "internal error" in str(e)

    if not fails(lines):
        print("%s does not fail" % path)
        return 1
    changed = True
    while changed:
        changed = False
        for k in range(len(lines) - 1, -1, -1):
            if lines[k].startswith(("// e2e", "#include", "#if", "#endif")) or not lines[k].strip():
                continue
            cand = lines[:k] + lines[k + 1:]
            if fails(cand):
                lines, changed = cand, True
    with open(out, "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--adsoac", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--nvcc", help="also compile the CUDA output of some programs")
    ap.add_argument("--nvcc-every", type=int, default=10, help="with --nvcc: every K-th program")
    ap.add_argument("--build-dir")
    ap.add_argument("--keep", help="copy failing programs here (default BUILD_DIR/failed)")
    ap.add_argument("--adsoac-flag", action="append", default=[])
    ap.add_argument("--cflags", default="", help="extra flags for compiling adsoac's output")
    ap.add_argument("--print-only", action="store_true", help="print the programs, run nothing")
    ap.add_argument("--shrink", metavar="FILE", help="shrink a failing program (to FILE.min.c)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    if a.shrink:
        root = os.path.abspath(a.build_dir or tempfile.mkdtemp(prefix="difftest-"))
        args = argparse.Namespace(adsoac=os.path.abspath(a.adsoac), adsoac_flag=a.adsoac_flag,
                                  build_dir=root, nvcc=None, nvcc_flags="", fake=None,
                                  cc=os.environ.get("CC", "cc"), cflags=a.cflags, sanitize=False,
                                  cuda_run=False)
        return shrink(args, a.shrink, a.shrink[:-2] + ".min.c")
    progs = generate(a.seed, a.count)
    if a.print_only:
        for _, text in progs:
            print(text)
        return 0
    root = os.path.abspath(a.build_dir or tempfile.mkdtemp(prefix="difftest-"))
    src = os.path.join(root, "src")
    os.makedirs(src, exist_ok=True)
    for name, text in progs:
        with open(os.path.join(src, name + ".c"), "w") as fh:
            fh.write(text)
    args = argparse.Namespace(adsoac=os.path.abspath(a.adsoac), adsoac_flag=a.adsoac_flag,
                              build_dir=os.path.join(root, "build"), src_dir=src, nvcc=a.nvcc,
                              nvcc_flags="", cc=os.environ.get("CC", "cc"), cflags=a.cflags, fake=None,
                              sanitize=False, cuda_run=False)
    todo = [(run_e2e.run_c, n) for n, _ in progs]
    if a.nvcc:
        todo += [(run_e2e.run_cuda, n) for k, (n, _) in enumerate(progs) if k % a.nvcc_every == 0]

    def one(fn, name):
        try:
            fn(args, name)
            return "pass", ""
        except run_e2e.Refused as e:
            return "refused", str(e)
        except run_e2e.Fail as e:
            return "fail", str(e)
        except Exception as e:  # a harness bug is a failure too
            return "fail", "harness error: %r" % e

    keep = a.keep or os.path.join(root, "failed")
    counts, refusals = {"pass": 0, "refused": 0, "fail": 0}, {}
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        futs = [(fn, n, ex.submit(one, fn, n)) for fn, n in todo]
        for fn, n, fut in futs:
            status, msg = fut.result()
            counts[status] += 1
            label = n + (" [cuda]" if fn is run_e2e.run_cuda else "")
            if status == "refused":
                why = next((l for l in msg.splitlines() if ": error: " in l), msg.splitlines()[-1])
                why = why.split(": error: ", 1)[-1]
                refusals.setdefault(why, []).append(n)
            elif status == "fail":
                os.makedirs(keep, exist_ok=True)
                shutil.copy(os.path.join(src, n + ".c"), keep)
                print("FAIL %s (kept in %s)\n    %s" % (label, keep, msg.replace("\n", "\n    ")[:3000]))
            sys.stdout.flush()
    print("refusals (%d):" % counts["refused"])
    for why, names in sorted(refusals.items(), key=lambda kv: -len(kv[1])):
        print("  %3d  %s  (e.g. %s)" % (len(names), why, names[0]))
    print("%d programs, seed %d: %d passed, %d refused, %d failed"
          % (len(progs), a.seed, counts["pass"], counts["refused"], counts["fail"]))
    # the closing line: a refusal is not a failure
    print("%d passed, %d failed" % (counts["pass"] + counts["refused"], counts["fail"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
