#!/usr/bin/env python3
"""Differential tester: random programs inside the contract, checked end to end.

Two spaces of programs.  Classic (class Gen): a marked function of one or two annotated
loops (map, reduce, scan, hist with every operator), whose bodies mix branches (if/else,
nested ifs, ?:) around reads of every kind (the loop's own element, a loop-invariant element
p[3] or p[k], an indirect element x[idx[i]], a free scalar, a local, a struct field), math
calls, helper functions, sequential inner loops and nested annotated reductions, maybe in a
time loop (that may move the index array each step); with inputs that reach the special cases (exact zeros for *, ties for min/max,
bins outside the section, n = 0, 1 and odd sizes).  Legacy C (class LegacyGen, README "What
is supported"): the same loops and reads with local arrays (fixed, 2-D, variable-length,
malloc'd scratch) filled, read and updated in place by sequential loops of every C form
(triangular updates, under if/else, declared in a branch), pointer views and helpers writing
through pointers, several index expressions into one array, memset/memcpy, time loops
writing at offsets that move with the step, an array of structs with an int field.  Program
k of a seed comes from either space (--space mixed, by a stream of its own: the classic
programs keep the text they had before the legacy space existed), or all from one.

Each is checked by tests/e2e/run_e2e.py: f against the original C, f_vjp against central
finite differences of the original, f_jvp against finite differences and <jvp(u), w> =
<u, vjp(w)>, adsoac's output compiled with -Wall -Werror; with --nvcc the CUDA output is
compiled too.  A refusal (adsoac exits 1 with a diagnostic) is not a failure: it is counted
and summarized.  A failure of derivatives only, at inputs with kinks (exact zeros and ties
put several kinks along one direction, where the one-sided differences bound nothing), is
run again without the zeros and ties and counted apart if it passes there.  Anything else (a
wrong number, an internal error, a crash, output that does not compile) fails, and the
program is kept in --keep DIR (default: the build directory's failed/).

  tests/difftest/difftest.py --adsoac build/adsoac [--seed S] [--count N] [-j J]
                             [--space mixed|classic|legacy] [--avoid NAME,...]
                             [--nvcc NVCC --nvcc-every K] [--keep DIR] [--print-only]
  tests/difftest/difftest.py --adsoac build/adsoac --selfcheck [asan|msan] ...
                             checks the generator, not adsoac: each program as the
                             finite-difference stand-in (tests/e2e/selftest/fd_fake.py) under
                             ASan+UBSan or MSan (no access out of bounds, no uninitialised read)
  tests/difftest/difftest.py --adsoac build/adsoac --shrink FAILED.c
                             deletes blocks, lines and size cases while it fails the same way
                             (or is refused with the same message) and stays valid: FAILED.min.c

--avoid leaves out the trigger of a known bug (each names its program in found/), so that
the rest of the space stays visible (none at present: every bug found so far is fixed, its
program an e2e test).
The last line printed is `N passed, M failed`; the exit status is 1 if anything failed.
"""
import argparse
import concurrent.futures
import os
import random
import re
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
        i = "i"
        ctx = {"i": i, "locals": []}
        s = self.loop_open(kind, op, ind, state)
        self.emit(ind, "for (int %s = 0; %s < n; %s++) {" % (i, i, i))
        if state["y_written"] and self.r.random() < 0.5:
            ctx["locals"].append("y[%s]" % i)  # the earlier loop's output
        self.locals_block(ctx, ind + 1, self.r.randrange(0, 3))
        b = ind + 1
        if kind == "map":
            self.out_map(ctx, b, state)
        elif kind == "reduce":
            self.out_reduce(ctx, b, op, s, state)
        elif kind == "scan":
            self.out_scan(ctx, b, op, s, state)
        else:
            self.out_hist(ctx, b, op, state)
        self.emit(ind, "}")

    def loop_open(self, kind, op, ind, state):
        """The pragma of an annotated loop (and its accumulator's declaration): its name."""
        r, s = self.r, None
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
        return s

    def out_map(self, ctx, b, state):
        """The writes of a map: y[i], maybe under branches, maybe step by step."""
        r, i = self.r, ctx["i"]
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

    def out_reduce(self, ctx, b, op, s, state):
        r = self.r
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

    def out_scan(self, ctx, b, op, s, state):
        r, i = self.r, ctx["i"]
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

    def out_hist(self, ctx, b, op, state):
        r, i = self.r, ctx["i"]
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
            if r.random() < 0.3:  # the index array moves each step (state the gradient skips)
                state["idx_written"] = True
                self.emit(2, "#pragma adsoac map")
                self.emit(2, "for (int i = 0; i < n; i++)")
                self.emit(3, "idx[i] = (idx[i] + t + 1) % n;")
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
                 "%s %s(int n, int k, int steps, double a, const double *x, const double *p, %sint *idx,"
                 % (ret, self.name, "" if state.get("idx_written") else "const "),
                 "    const int *bin, %sdouble *y, %sdouble *h) {"
                 % ("" if state["y_written"] else "const ", "" if state["h_written"] else "const ")]
        text = "\n".join([l.rstrip() for l in head] + self.lines + ["}", ""])
        if r.random() < 0.2:  # single precision (the harness loosens its tolerances)
            text = text.replace("// e2e: tol grad_rtol=1e-5 grad_atol=1e-6\n", "")
            text = text.replace("double", "float").replace("(float)i", "(float)i")
        return text


# helpers that take pointers (language.md §6): slices of arrays and local arrays, writes
# through them, in place, a pointer stepping through its slice
PHELPERS = {
    "pdot": ["static double pdot(int m, const double *u, const double *v) {",
             "  double s = 0.0;",
             "  for (int j = 0; j < m; j++) s += u[j] * v[j];",
             "  return s;",
             "}"],
    "pscale": ["static void pscale(int m, const double *u, double c, double *out) {",
               "  for (int j = 0; j < m; j++) out[j] = c * u[j] + 0.5 * sin(u[j]);",
               "}"],
    "psq": ["static void psq(double v, double *out) { *out = v * v + 0.5 * v; }"],
    "pacc": ["static void pacc(double v, double *out) { *out = 0.5 * *out + tanh(v); }"],
    "ptri": ["static void ptri(int m, const double *l, double *v) {",
             "  for (int a = 0; a < m; a++)",
             "    for (int b = a + 1; b < m; b++) v[b] = v[b] + 0.5 * l[a] * v[a];",
             "}"],
    "pwalk": ["static double pwalk(int m, const double *u) {",
              "  double s = 0.0;",
              "  const double *q = u;",
              "  for (int j = 0; j < m; j++) {",
              "    s += *q * (j + 1);",
              "    q++;",
              "  }",
              "  return s;",
              "}"],
    "pstep": ["static void pstep(int m, double *v, double c) {",
              "  double *q = v;",
              "  for (int j = 0; j < m; j++) {",
              "    *q = *q * c + 0.125;",
              "    q++;",
              "  }",
              "}"],
    # (the step in the for: refused, found/refused/pointer_step_write.c)
    "pstepc": ["static void pstepc(int m, double *v, double c) {",
               "  double *q = v;",
               "  for (int j = 0; j < m; j++, q++) *q = *q * c + 0.125;",
               "}"],
    "pcross": ["static void pcross(const double *u, const double *v, double *out) {",
               "  out[0] = u[1] * v[2] - u[2] * v[1];",
               "  out[1] = u[2] * v[0] - u[0] * v[2];",
               "  out[2] = u[0] * v[1] - u[1] * v[0];",
               "}"],
    "pfirst": ["static double pfirst(const double *q) { return q[0] + 2.0 * *(q + 1); }"],
    "pupd": ["static void pupd(Pt *e, double c) {",
             "  e->w = e->w * c + 0.5;",
             "  e->id = e->id + 1;",
             "}"],
}
# known bugs' triggers the generator can leave out (--avoid): each names a program of found/
AVOID = set()
YLEN = "4*n+4"   # y: room for y[i], y[n+i], y[2*n+i], y[2*i+1], y[3*i+2], y[d*i+c] (d <= 4), y[t]


class LegacyGen(Gen):
    """One random program of the legacy-C space (README "What is supported", language.md §6):
    the annotated loops of Gen (every combinator and operator, branches around reads, nested
    reductions, zeros and ties) with bodies that also use local arrays (fixed-size, 2-D, with
    and without initialisers, variable-length, malloc'd scratch privatized per iteration) that
    sequential loops fill, read and update in place (triangular updates included), under
    if/else or declared inside a branch; pointer views into arrays, helpers taking slices and
    writing through pointers, *p = e, p[k] += e, a pointer stepping, &s passed to a helper;
    loops of every C form (steps, counting down, <=, !=, the index declared before and read
    after, while, do, break, continue, convergence loops with a cap), continue in parallel
    loops, parallel loops stepping by 2 or counting down; several index expressions into y in
    one map (y[2*i], y[2*i+1]; y[3*i+c], y[d*i+c]; y[i], y[n+i], y[2*n+i]), also through
    pointer views and helpers; malloc'd arrays at the function's level with memset/memcpy;
    time loops with a function-level local array, y[t] updated per step, a state vector
    written in two halves through views at offsets that move with the step, a ping-pong
    buffer copied with memcpy; an array of structs with an int field."""

    def __init__(self, rng, name):
        super().__init__(rng, name)
        self.phelpers = []      # the pointer helpers used
        self.written = set()    # arrays of the parameters written: y, h, s
        self.optional = set()   # optional parameters used: s, pt
        self.pre, self.post = [], []  # function-level lines before / after the body
        self.fl_reads = []      # function-level arrays every loop may read at its index
        self.fl_arrays = []     # function-level local arrays: (name, length)
        self.headers = {"math.h"}

    def fresh(self, base):
        self.ntmp += 1
        return "%s%d" % (base, self.ntmp)

    def use(self, h):
        if h not in self.phelpers:
            self.phelpers.append(h)
        return h

    # ---- expressions ----

    def cidx(self, L):
        """A constant index into an array of length L (3, or "d")."""
        if L == "d":
            return self.r.choice(["0", "d - 1", "d / 2"])
        return str(self.r.randrange(L))

    def legacy_leaves(self, ctx):
        r, i, opts = self.r, ctx["i"], []
        cs = ctx.get("cs", [])
        for name, L, _ in ctx.get("arrays", []):
            if isinstance(L, tuple):
                R, C = L
                opts.append("%s[%d][%d]" % (name, r.randrange(R), r.randrange(C)))
                for a, ba in cs:
                    for b, bb in cs:
                        if a != b and ba == R and bb == C:
                            opts += ["%s[%s][%s]" % (name, a, b)] * 2
                continue
            opts.append("%s[%s]" % (name, self.cidx(L)))
            if name.startswith("rw"):
                opts.append("*%s" % name)
            for c, bound in cs:
                if bound == L:
                    opts += ["%s[%s]" % (name, c)] * 3
        for c, bound in cs:
            if bound == "d" and i:
                opts.append("x[%s * d + %s]" % (i, c))
            if bound != "d" and bound <= NP:
                opts.append("p[%s]" % c)
        if i:
            opts += ["%s[%s]" % (g, i) for g in self.fl_reads]
            opts += [y % {"i": i} for y in ctx.get("yreads", [])]
            if "pt" in self.optional:
                opts += ["pt[%s].w" % i, "x[pt[%s].id]" % i, "(pt + %s)->w" % i]
        for name, L in self.fl_arrays:
            opts.append("%s[%s]" % (name, self.cidx(L)))
        return opts

    def leaf(self, ctx):
        if ctx.get("legacy") and self.r.random() < 0.4:
            opts = self.legacy_leaves(ctx)
            return self.r.choice(opts) if opts else super().leaf(ctx)
        return super().leaf(ctx)

    def sub(self, ctx, **kw):
        """A copy of ctx for a nested scope (its own locals and arrays)."""
        c = dict(ctx, locals=list(ctx["locals"]), arrays=list(ctx.get("arrays", [])),
                 cs=list(ctx.get("cs", [])))
        c.update(kw)
        return c

    # ---- sequential loops in every C form ----

    def seq_loop(self, ctx, ind, L, body, partial=False, forms=None):
        """A sequential loop over [0, L) in one of C's forms; body(ctx, ind, c) emits its
        statements.  With partial, it may skip elements (steps of 2, break, continue); else
        it visits every index (so that it can fill an array); forms narrows the forms (the
        numbers below) where adsoac refuses the others (found/refused/).  Returns the index's
        name if it was declared before the loop (it can be read after: L, or where it broke)."""
        r, c = self.r, self.fresh("c")
        Ls = str(L)
        c2 = self.sub(ctx, cs=ctx.get("cs", []) + [(c, L)])
        k = r.choice(forms or [0, 0, 0, 1, 2, 2, 3, 4, 5, 6, 7] + ([8, 8, 9, 10] if partial else []))
        after = None
        tail = []
        if k < 2:
            head = "for (int {c} = 0; {c} < {L}; {c}++) {{"
        elif k == 2:
            head = "for (int {c} = {L} - 1; {c} >= 0; {c}--) {{"
        elif k == 3:
            head = "for (int {c} = 0; {c} <= {L} - 1; ++{c}) {{"
        elif k == 4:
            head = "for (int {c} = 0; {c} != {L}; {c} += 1) {{"
        elif k == 5:
            self.emit(ind, "int %s = 0;" % c)
            head, tail = "while ({c} < {L}) {{", ["%s++;" % c]
        elif k == 6:
            self.emit(ind, "int %s = 0;" % c)
            head, tail = "do {{", ["%s++;" % c]
        elif k == 7:
            self.emit(ind, "int %s;" % c)
            head, after = "for ({c} = 0; {c} < {L}; {c}++) {{", c
        elif k == 8:
            head = r.choice(["for (int {c} = 0; {c} < {L}; {c} += 2) {{",
                             "for (int {c} = {L} - 1; {c} >= 0; {c} -= 2) {{"])
        else:  # break or continue
            if r.random() < 0.5:
                self.emit(ind, "int %s;" % c)
                head, after = "for ({c} = 0; {c} < {L}; {c}++) {{", c
            else:
                head = "for (int {c} = 0; {c} < {L}; {c}++) {{"
        self.emit(ind, head.format(c=c, L=Ls))
        if k >= 9:
            self.emit(ind + 1, "if (%s) %s;" % (self.cond(c2), r.choice(["break", "continue"])))
        body(c2, ind + 1, c)
        for s in tail:
            self.emit(ind + 1, s)
        self.emit(ind, "} while (%s < %s);" % (c, Ls) if k == 6 else "}")
        return after

    # ---- local arrays ----

    def declare_array(self, ctx, ind, L, where="any"):
        """A local array of length L (3 or "d"; (2, 3): 2-D), fully initialised: by an
        initialiser, or by a loop (maybe one per branch of an if).  Returns its name."""
        r = self.r
        if isinstance(L, tuple):
            R, C = L
            v = self.fresh("lm")
            if r.random() < 0.4:
                self.emit(ind, "double %s[%d][%d] = {%s};" % (v, R, C, ", ".join(
                    "{%s}" % ", ".join(self.expr(ctx, 1) for _ in range(C)) for _ in range(R))))
            else:
                self.emit(ind, "double %s[%d][%d];" % (v, R, C))
                a, b = self.fresh("ai"), self.fresh("bi")
                c2 = self.sub(ctx, cs=ctx.get("cs", []) + [(a, R), (b, C)])
                self.emit(ind, "for (int %s = 0; %s < %d; %s++)" % (a, a, R, a))
                self.emit(ind + 1, "for (int %s = %s; %s < %d; %s++)" % (b, "0", b, C, b))
                self.emit(ind + 2, "%s[%s][%s] = %s;" % (v, a, b, self.expr(c2, 2)))
            return v
        v = self.fresh("lv" if L != "d" else "vl")
        k = r.randrange(6)
        if L != "d" and k < 2:
            n = L if k == 0 else r.randrange(1, L)   # a partial initialiser: the rest is 0
            self.emit(ind, "double %s[%d] = {%s};" % (v, L, ", ".join(self.expr(ctx, 1) for _ in range(n))))
            return v
        self.declare(ctx, ind, v, L)
        fill = lambda c2, i2, c: self.emit(i2, "%s[%s] = %s;" % (v, c, self.expr(c2, 2)))
        if k == 5 and where != "nobranch":  # filled by either branch of an if (the bug of 10c01f9)
            self.emit(ind, "if (%s) {" % self.cond(ctx))
            self.seq_loop(ctx, ind + 1, L, fill)
            self.emit(ind, "} else {")
            self.seq_loop(ctx, ind + 1, L, fill)
            self.emit(ind, "}")
        else:
            self.seq_loop(ctx, ind, L, fill)
        return v

    def dlen(self, ctx):
        """The length of a local array of d elements: d, or 4 where the body has a continue
        (adsoac refuses a variable-length array there: found/refused/vla_continue.c)."""
        return 4 if ctx.get("novla") else "d"

    def declare(self, ctx, ind, v, L):
        """double v[L]; a variable-length one at the start of the parallel loop's body (where
        adsoac takes them: inside an if or a loop it refuses them)."""
        if L == "d" and "top" in ctx:
            self.lines.insert(ctx["top"], "  " * ctx["topind"] + "double %s[d];" % v)
        else:
            self.emit(ind, "double %s[%s];" % (v, L))

    def array_op(self, ctx, ind, v, L):
        """An update of local array v (length L) in place."""
        r = self.r
        k = r.randrange(7)
        srcs = [n for n, l, _ in ctx["arrays"] if l == L and n != v] + ["p"]  # (p: 8 >= L)
        if k < 2:  # elementwise, maybe reading other elements (while, do, break: seldom, as
            # adsoac refuses them when they update an array: found/refused/exit_loop_inplace.c)
            forms = None if r.random() < 0.15 else [0, 0, 1, 2, 3, 4, 7, 8]
            self.seq_loop(ctx, ind, L, lambda c2, i2, c: self.emit(
                i2, "%s[%s] = %s[%s] * %s + %s;" % (v, c, v, c, r.choice(["0.5", "a", self.expr(c2, 1)]),
                                                   self.expr(c2, 1))), partial=True, forms=forms)
        elif k == 2:  # triangular (Qtimesx): reads earlier elements
            a, b = self.fresh("ai"), self.fresh("bi")
            c2 = self.sub(ctx, cs=ctx["cs"] + [(a, L), (b, L)])
            src = r.choice(srcs + [v])
            self.emit(ind, "for (int %s = 0; %s < %s; %s++)" % (a, a, L, a))
            self.emit(ind + 1, "for (int %s = %s + 1; %s < %s; %s++)" % (b, a, b, L, b))
            self.emit(ind + 2, "%s[%s] = %s[%s] + %s * %s[%s];" % (v, b, v, b, self.expr(c2, 1), src, a))
        elif k == 3:  # triangular with a running counter (GMM's Lparamsidx)
            a, b, li = self.fresh("ai"), self.fresh("bi"), self.fresh("li")
            src = r.choice(srcs + [v])
            self.emit(ind, "int %s = 0;" % li)
            self.emit(ind, "for (int %s = 0; %s < %s; %s++) {" % (a, a, L, a))
            self.emit(ind + 1, "for (int %s = %s + 1; %s < %s; %s++) {" % (b, a, b, L, b))
            self.emit(ind + 2, "%s[%s] = %s[%s] + p[%s] * %s[%s];" % (v, b, v, b, li, src, a))
            self.emit(ind + 2, "%s++;" % li)
            self.emit(ind + 1, "}")
            self.emit(ind, "}")
        elif k == 4:  # a helper updating it in place through a pointer
            if r.random() < 0.5:
                self.emit(ind, "%s(%s, %s, %s);" % (self.use("ptri"), L, r.choice(srcs), v))
            else:
                self.emit(ind, "%s(%s, %s, %s);" % (self.use("pstep" if r.random() < 0.9 else "pstepc"), L, v,
                                                    r.choice(["0.5", "a", self.expr(ctx, 1)])))
        elif k == 5:  # through a local pointer: *q = e, q[k] += e
            q = self.fresh("pq")
            off = 1 if L != "d" and L > 1 and r.random() < 0.5 else 0
            self.emit(ind, "double *%s = %s;" % (q, "&%s[1]" % v if off else v))
            span = (L - off) if L != "d" else None
            self.emit(ind, "*%s = %s;" % (q, self.expr(ctx, 1)))
            j = str(r.randrange(span)) if span else r.choice(["0", "d - 1"])
            self.emit(ind, "%s[%s] %s %s;" % (q, j, r.choice(["+=", "*=", "-="]), self.expr(ctx, 1)))
        else:  # a single element
            self.emit(ind, "%s[%s] = %s;" % (v, self.cidx(L), self.expr(ctx, 2)))

    def array_ops(self, ctx, ind, v, L):
        """Updates of v in place, maybe under if/else (both sides, one side, nested ifs)."""
        r = self.r
        k = r.randrange(5)
        if k == 0:
            self.array_op(ctx, ind, v, L)
        elif k == 1:
            self.emit(ind, "if (%s) {" % self.cond(ctx))
            self.array_op(ctx, ind + 1, v, L)
            self.emit(ind, "}")
        elif k == 2:
            self.emit(ind, "if (%s) {" % self.cond(ctx))
            self.array_op(ctx, ind + 1, v, L)
            self.emit(ind, "} else {")
            self.array_op(ctx, ind + 1, v, L)
            self.emit(ind, "}")
        elif k == 3:
            self.emit(ind, "if (%s) {" % self.cond(ctx))
            self.array_op(ctx, ind + 1, v, L)
            self.emit(ind + 1, "if (%s) {" % self.cond(ctx))
            self.array_op(ctx, ind + 2, v, L)
            self.emit(ind + 1, "}")
            if r.random() < 0.5:
                self.emit(ind, "} else {")
                self.array_op(ctx, ind + 1, v, L)
            self.emit(ind, "}")
        else:
            self.array_op(ctx, ind, v, L)
            self.array_op(ctx, ind, v, L)

    def consume(self, ctx, ind, v, L):
        """A local scalar made of array v (length L): returns its name."""
        r, t = self.r, self.fresh("r")
        k = r.randrange(6)
        srcs = [n for n, l, _ in ctx["arrays"] if l == L and n != v] + ["p"]
        if isinstance(L, tuple):
            R, C = L
            a, b = self.fresh("ai"), self.fresh("bi")
            self.emit(ind, "double %s = 0.0;" % t)
            self.emit(ind, "for (int %s = 0; %s < %d; %s++)" % (a, a, R, a))
            self.emit(ind + 1, "for (int %s = 0; %s < %d; %s++)" % (b, b, C, b))
            self.emit(ind + 2, "%s += %s[%s][%s] * %s[%d - %s][%d - %s];" % (t, v, a, b, v, R - 1, a, C - 1, b))
        elif k < 2:
            self.emit(ind, "double %s = 0.0;" % t)
            after = self.seq_loop(ctx, ind, L, lambda c2, i2, c: self.emit(
                i2, "%s += %s[%s] * %s;" % (t, v, c, self.expr(c2, 1))), partial=True)
            if after:
                self.emit(ind, "%s += 0.125 * %s;" % (t, after))
        elif k == 2:
            self.emit(ind, "double %s = %s[0] * %s + %s[%s];" % (t, v, self.expr(ctx, 1), v, "d - 1" if L == "d" else L - 1))
        elif k == 3 and srcs:
            self.emit(ind, "double %s = %s(%s, %s, %s);" % (t, self.use("pdot"), L, v, r.choice(srcs)))
        elif k == 4:  # a pointer stepping through it
            q = self.fresh("pq")
            self.emit(ind, "double %s = 0.0;" % t)
            self.emit(ind, "const double *%s = %s;" % (q, v))
            c = self.fresh("c")
            self.emit(ind, "for (int %s = 0; %s < %s; %s++) {" % (c, c, L, c))
            self.emit(ind + 1, "%s += *%s * %s;" % (t, q, self.expr(self.sub(ctx, cs=ctx["cs"] + [(c, L)]), 1)))
            self.emit(ind + 1, "%s++;" % q)
            self.emit(ind, "}")
        elif L != "d" and L >= 2 and r.random() < 0.5:
            self.emit(ind, "double %s = %s(%s) * %s;" % (t, self.use("pfirst"), v, self.expr(ctx, 1)))
        else:
            self.emit(ind, "double %s = %s(%s, %s);" % (t, self.use("pwalk"), L, v))
        return t

    # ---- statements of a parallel loop's body ----

    def lstmt(self, ctx, ind):
        """One legacy construct in a parallel loop's body; it defines a local scalar (added
        to ctx's locals) and maybe a local array later reads may use."""
        r, i = self.r, ctx["i"]
        k = r.randrange(12)
        if k < 3:  # a fixed-size local array: filled, updated, read
            L = r.choice([3, 3, 2, 4])
            v = self.declare_array(ctx, ind, L)
            if r.random() < 0.8:
                self.array_ops(ctx, ind, v, L)
            ctx["arrays"].append((v, L, True))
            ctx["locals"].append(self.consume(ctx, ind, v, L))
        elif k == 3:  # 2-D
            v = self.declare_array(ctx, ind, (2, 3))
            if r.random() < 0.5:
                a = self.fresh("ai")
                self.emit(ind, "for (int %s = 0; %s < 3; %s++) %s[1][%s] = %s[1][%s] * %s + %s[0][%s];"
                          % (a, a, a, v, a, v, a, self.expr(ctx, 1), v, a))
            ctx["arrays"].append((v, (2, 3), True))
            ctx["locals"].append(self.consume(ctx, ind, v, (2, 3)))
        elif k == 4:  # a local array declared inside a branch
            t = self.fresh("r")
            self.emit(ind, "double %s = %s;" % (t, self.r.choice(["0.0", self.leaf(ctx)])))
            self.emit(ind, "if (%s) {" % self.cond(ctx))
            c2 = self.sub(ctx)
            L = r.choice([2, 3, self.dlen(ctx)])
            v = self.declare_array(c2, ind + 1, L)
            if r.random() < 0.6:
                self.array_ops(c2, ind + 1, v, L)
            c2["arrays"].append((v, L, True))
            u = self.consume(c2, ind + 1, v, L)
            self.emit(ind + 1, "%s = %s + %s;" % (t, t, u))
            if r.random() < 0.5:
                self.emit(ind, "} else {")
                c3 = self.sub(ctx)
                if r.random() < 0.5:
                    v = self.declare_array(c3, ind + 1, 3)
                    c3["arrays"].append((v, 3, True))
                    u = self.consume(c3, ind + 1, v, 3)
                    self.emit(ind + 1, "%s = %s * %s;" % (t, u, self.expr(c3, 1)))
                else:
                    self.emit(ind + 1, "%s = %s;" % (t, self.expr(ctx)))
            self.emit(ind, "}")
            ctx["locals"].append(t)
        elif k == 5:  # a pointer view of a row of x (or of p), read in loops
            w = self.fresh("rw")
            k2 = r.randrange(4)
            if k2 == 0:
                self.emit(ind, "const double *%s = x + %s * d;" % (w, i))
            elif k2 == 1:
                self.emit(ind, "const double *%s = &x[%s * d];" % (w, i))
            elif k2 == 2:
                self.emit(ind, "const double *%s = &x[idx[%s] * d];" % (w, i))
            else:
                self.emit(ind, "const double *%s = x + d * %s;" % (w, i))
            ctx["arrays"].append((w, "d", False))
            t = self.fresh("r")
            kk = r.randrange(4)
            if kk == 0:
                self.emit(ind, "double %s = 0.0;" % t)
                after = self.seq_loop(ctx, ind, "d", lambda c2, i2, c: self.emit(
                    i2, "%s += %s[%s] * %s;" % (t, w, c, self.expr(c2, 1))), partial=True)
                if after:
                    self.emit(ind, "%s += 0.125 * %s;" % (t, after))
            elif kk == 1:
                self.emit(ind, "double %s = %s(d, %s, %s);" % (t, self.use("pdot"), w,
                          r.choice(["&x[idx[%s] * d]" % i, w, "x + %s * d" % i])))
            elif kk == 2:
                self.emit(ind, "double %s = %s(d, %s) + *%s;" % (t, self.use("pwalk"), w, w))
            else:  # a pointer stepping through the row
                q = self.fresh("pq")
                c = self.fresh("c")
                self.emit(ind, "double %s = 0.0;" % t)
                self.emit(ind, "const double *%s = %s;" % (q, w))
                self.emit(ind, "for (int %s = 0; %s < d; %s++, %s++) %s += %s * *%s;" % (
                    c, c, c, q, t, self.expr(self.sub(ctx, cs=ctx["cs"] + [(c, "d")]), 1), q))
            ctx["locals"].append(t)
        elif k == 6:  # &s of a local scalar passed to a helper writing *out
            t = self.fresh("r")
            if r.random() < 0.5:
                self.emit(ind, "double %s;" % t)
                self.emit(ind, "%s(%s, &%s);" % (self.use("psq"), self.expr(ctx, 1), t))
            else:
                self.emit(ind, "double %s = %s;" % (t, self.expr(ctx, 1)))
                self.emit(ind, "%s(%s, &%s);" % (self.use("pacc"), self.expr(ctx, 1), t))
            if r.random() < 0.4:
                q = self.fresh("pq")
                self.emit(ind, "double *%s = &%s;" % (q, t))
                self.emit(ind, "*%s = *%s * %s + %s;" % (q, q, self.expr(ctx, 1), self.expr(ctx, 1)))
            ctx["locals"].append(t)
        elif k == 7:  # a helper writing a local array through a pointer (a slice of x, of p)
            L = r.choice([3, self.dlen(ctx)])
            v = self.fresh("lv")
            self.declare(ctx, ind, v, L)
            if L == 3 and r.random() < 0.4:
                u = self.declare_array(ctx, ind, 3)
                self.emit(ind, "%s(%s, %s, %s);" % (self.use("pcross"), u, r.choice(["p", "&p[k]", "p + 2"]), v))
                ctx["arrays"].append((u, 3, True))
            else:
                src = r.choice(["&x[%s * d]" % i, "x + %s * d" % i]) if L == "d" else r.choice(["p", "&p[k]", "p + 4"])
                self.emit(ind, "%s(%s, %s, %s, %s);" % (self.use("pscale"), L, src, self.expr(ctx, 1), v))
            if r.random() < 0.5:
                self.array_ops(ctx, ind, v, L)
            ctx["arrays"].append((v, L, True))
            ctx["locals"].append(self.consume(ctx, ind, v, L))
        elif k == 8:  # a sequential loop with break/continue, or a capped convergence loop
            t = self.fresh("r")
            if r.random() < 0.5:
                self.emit(ind, "double %s = %s;" % (t, r.choice(["0.0", self.leaf(ctx)])))
                L = r.choice([3, "d", 4])
                after = self.seq_loop(ctx, ind, L, lambda c2, i2, c: self.emit(
                    i2, "%s += %s;" % (t, self.expr(c2, 1))), partial=True)
                if after:
                    self.emit(ind, "%s += 0.125 * %s;" % (t, after))
            else:
                it = self.fresh("it")
                self.emit(ind, "double %s = %s;" % (t, self.expr(ctx, 1)))
                self.emit(ind, "int %s = 0;" % it)
                if r.random() < 0.5:
                    self.emit(ind, "while (fabs(%s) > 0.05 && %s < %d) {" % (t, it, r.choice([4, 8])))
                    self.emit(ind + 1, "%s = 0.6 * %s + 0.01 * tanh(%s);" % (t, t, self.expr(ctx, 1)))
                    self.emit(ind + 1, "%s++;" % it)
                    self.emit(ind, "}")
                else:  # Newton's square root: the result does not depend on where it stopped
                    q = self.fresh("r")
                    self.emit(ind, "double %s = 1.0 + %s * %s;" % (q, t, t))
                    self.emit(ind, "%s = %s;" % (t, q))
                    self.emit(ind, "do {")
                    self.emit(ind + 1, "%s = 0.5 * (%s + %s / %s);" % (t, t, q, t))
                    self.emit(ind + 1, "%s++;" % it)
                    self.emit(ind, "} while (fabs(%s * %s - %s) > 1e-14 * %s && %s < 40);" % (t, t, q, q, it))
            ctx["locals"].append(t)
        elif k == 9 and not ctx.get("nested"):  # a nested annotated reduction over a row
            t = self.fresh("r")
            c = self.fresh("c")
            op = r.choice(["+", "+", "max"])
            self.emit(ind, "double %s = %s;" % (t, "0.0" if op == "+" else "-1e3"))
            self.emit(ind, "#pragma adsoac reduce(%s: %s)" % (op, t))
            self.emit(ind, "for (int %s = 0; %s < d; %s++) {" % (c, c, c))
            c2 = self.sub(ctx, cs=ctx["cs"] + [(c, "d")], nested=True)
            e = "x[%s * d + %s] * %s" % (i, c, self.expr(c2, 1))
            self.emit(ind + 1, "%s += %s;" % (t, e) if op == "+" else "%s = fmax(%s, %s);" % (t, t, e))
            self.emit(ind, "}")
            ctx["locals"].append(t)
        else:  # an old-style local (branches, inner loops, nested reductions, structs)
            self.locals_block(ctx, ind, 1)

    # ---- annotated loops ----

    def par_header(self, ind, kind):
        """The for line of a parallel loop over (a subset of) [0, n): its index name."""
        r = self.r
        k = r.randrange(14)
        i = "i"
        if k < 7:
            h = "for (int i = 0; i < n; i++) {"
        elif k == 7:
            h = "for (int i = n - 1; i >= 0; i--) {"
        elif k == 8:
            h = "for (int i = 0; i < n; i += 2) {"
        elif k == 9:
            h = "for (int i = n - 1; i >= 0; i -= 2) {"
        elif k == 10:
            h = "for (int i = 0; i <= n - 1; ++i) {"
        elif k == 11:
            h = "for (int i = 0; i != n; i++) {"
        else:  # the index declared before the loop, read after it
            i = self.fresh("ix")
            self.lines.insert(self.pragma_at, "  " * ind + "int %s;" % i)
            h = "for (%s = 0; %s < n; %s++) {" % (i, i, i)
        self.emit(ind, h)
        self.canonical = k < 7 or k >= 10  # (up by one: y[n + i] is proved disjoint from y[i])
        return i

    def lloop(self, kind, op, ind, state):
        """One annotated loop with a legacy body."""
        r = self.r
        scratch = None
        if r.random() < 0.2:  # a malloc'd scratch array, privatized (each iteration fills it)
            scratch = (self.fresh("sc"), r.choice(["d", 3]))
            self.headers.add("stdlib.h")
            self.pre.append("double *%s = (double *)malloc(%s * sizeof(double));" % (
                scratch[0], "(size_t)d" if scratch[1] == "d" else "3"))
            self.post.append("free(%s);" % scratch[0])
        self.pragma_at = len(self.lines)
        s = self.loop_open(kind, op, ind, state)
        layout = None
        if kind == "map":  # (in a time loop, rows y[3*i + c] are not checkpointed: README)
            layout = r.choice(["i", "i", "i", "2i", "3i", "di", "in"] if ind == 1 else ["i", "i", "2i", "in"])
            if "pt" in self.optional and r.random() < 0.3:
                layout = "st"
        i = self.par_header(ind, kind)
        if layout == "in" and not self.canonical and r.random() < 0.9:  # (found/refused/offsets_*.c)
            layout = "i"
        if i != "i" and ind == 1:  # (read after the loop: n, or its last index + 1)
            state["after"].append("0.5 * %s" % i)
        ctx = {"i": i, "locals": [], "arrays": [], "cs": [], "legacy": True,
               "top": len(self.lines), "topind": ind + 1}
        if kind in ("reduce", "hist"):
            ctx["yreads"] = ["y[%(i)s]", "y[2 * %(i)s + 1]", "y[n + %(i)s]", "y[3 * %(i)s + 2]"]
        b = ind + 1
        if r.random() < 0.2:  # a variable-length array at the start of the body
            v = self.fresh("vl")
            self.emit(b, "double %s[d];" % v)
            self.seq_loop(ctx, b, "d", lambda c2, i2, c: self.emit(i2, "%s[%s] = %s;" % (v, c, self.expr(c2, 2))))
            ctx["arrays"].append((v, "d", True))
        if scratch:  # (filled by <=, while or do: refused, found/refused/scratch_fill_forms.c)
            v, L = scratch
            forms = None if r.random() < 0.15 else [0, 0, 1, 4, 7] + ([2] if L == "d" else [])
            self.seq_loop(ctx, b, L, lambda c2, i2, c: self.emit(i2, "%s[%s] = %s;" % (v, c, self.expr(c2, 2))),
                          forms=forms)
            ctx["arrays"].append((v, L, True))
        vla = any(L == "d" for _, L, _ in ctx["arrays"])  # (with a continue: found/refused/vla_continue.c)
        if kind != "scan" and r.random() < (0.04 if vla else 0.2):  # continue in a parallel loop
            self.emit(b, "if (%s) continue;" % self.cond(ctx))
            ctx["novla"] = True
        if state["y_written"] and layout in ("i", "in") and r.random() < 0.5:
            ctx["locals"].append("y[%s]" % i)  # the earlier loop's output
        for _ in range(r.choice([1, 1, 2, 2, 3])):
            self.lstmt(ctx, b)
        # arrays of the body that may be updated once more just before the writes
        if ctx["arrays"] and r.random() < 0.3:
            v, L, w = r.choice(ctx["arrays"])
            if w and not isinstance(L, tuple):
                self.array_ops(ctx, b, v, L)
        if kind == "map":
            self.lout_map(ctx, b, state, layout)
        elif kind == "reduce":
            self.out_reduce(ctx, b, op, s, state)
        elif kind == "scan":
            self.out_scan(ctx, b, op, s, state)
        else:
            self.out_hist(ctx, b, op, state)
        if kind == "scan":
            self.written.add("y")
        if kind == "hist":
            self.written.add("h")
        self.emit(ind, "}")

    def lout_map(self, ctx, b, state, layout):
        """A map's writes of y in one layout (several index expressions into y)."""
        r, i = self.r, ctx["i"]
        if layout != "st":
            state["y_written"] = True
            self.written.add("y")
        arrs = lambda L: [n for n, l, _ in ctx["arrays"] if l == L]
        if layout == "i":
            self.out_map(ctx, b, state)
            return
        if layout == "st":  # an array of structs written: a field, the int field, whole elements
            self.optional.add("q")
            self.written.add("q")
            k = r.randrange(3)
            if k == 0:
                self.emit(b, "q[%s].w = %s;" % (i, self.body_expr(ctx)))
                self.emit(b, "q[%s].id = pt[%s].id + %s %% 2;" % (i, i, i))
            elif k == 1:  # a whole element read, changed, written back
                e = self.fresh("el")
                self.emit(b, "Pt %s = pt[%s];" % (e, i))
                self.emit(b, "%s.w = %s.w * %s + q[%s].w;" % (e, e, self.body_expr(ctx), i))
                self.emit(b, "q[%s] = %s;" % (i, e))
            else:  # through a pointer to the element, and a helper
                e = self.fresh("pe")
                self.emit(b, "Pt *%s = &q[%s];" % (e, i))
                self.emit(b, "%s(%s, %s);" % (self.use("pupd"), e, self.body_expr(ctx)))
                self.emit(b, "%s->w += (pt + %s)->w;" % (e, i))
            return
        if layout == "in":  # offsets that are multiples of the trip count
            self.out_map(ctx, b, state)
            for off in r.sample(["n + ", "2 * n + ", "3 * n + "], r.choice([1, 2])):
                self.emit(b, "y[%s%s] = %s;" % (off, i, self.body_expr(ctx)))
            return
        if layout == "2i":
            k = r.randrange(4)
            if k == 0:
                self.emit(b, "y[2 * %s] = %s;" % (i, self.body_expr(ctx)))
                self.emit(b, "y[2 * %s + 1] = %s;" % (i, self.body_expr(ctx)))
            elif k == 1:  # under a branch, then read back (from memory where not written)
                self.emit(b, "if (%s) y[2 * %s] = %s;" % (self.cond(ctx), i, self.body_expr(ctx)))
                self.emit(b, "else y[2 * %s + 1] = %s;" % (i, self.body_expr(ctx)))
                if r.random() < 0.6:
                    self.emit(b, "y[2 * %s + 1] = y[2 * %s + 1] + y[2 * %s] * %s;" % (i, i, i, self.expr(ctx, 1)))
            elif k == 2:  # through a pointer view
                q = self.fresh("yo")
                self.emit(b, "double *%s = %s;" % (q, r.choice(["&y[2 * %s]" % i, "y + 2 * %s" % i])))
                self.emit(b, "%s[0] = %s;" % (q, self.body_expr(ctx)))
                self.emit(b, "%s[1] = %s[0] * %s;" % (q, q, self.expr(ctx, 1)))
                if r.random() < 0.5:
                    self.emit(b, "*%s += %s;" % (q, self.expr(ctx, 1)))
            else:  # in place
                self.emit(b, "y[2 * %s] = y[2 * %s] * %s + y[2 * %s + 1];" % (i, i, self.expr(ctx, 1), i))
                self.emit(b, "y[2 * %s + 1] = %s;" % (i, self.body_expr(ctx)))
            return
        L, K = (3, "3") if layout == "3i" else ("d", "d")
        k = r.randrange(4)
        if k < 2:  # a nested sequential loop over the row (counting down, while, do: seldom,
            # refused: found/refused/rows_loop_forms.c)
            forms = None if r.random() < 0.15 else [0, 0, 1, 3, 4, 7]
            self.seq_loop(ctx, b, L, lambda c2, i2, c: self.emit(
                i2, "y[%s * %s + %s] = %s;" % (K, i, c, self.body_expr(c2))), forms=forms)
        elif k == 2:  # a helper writing the row through a pointer
            src = r.choice(arrs(L) + (["p", "p + 4"] if L == 3 else ["&x[%s * d]" % i]))
            self.emit(b, "%s(%s, %s, %s, %s);" % (self.use("pscale"), L, src, self.expr(ctx, 1),
                                                  r.choice(["&y[%s * %s]" % (K, i), "y + %s * %s" % (K, i)])))
        else:  # a pointer view of the row, maybe stepping through it (seldom: refused,
            # found/refused/rows_pointer_step.c)
            q, c = self.fresh("yo"), self.fresh("c")
            self.emit(b, "double *%s = y + %s * %s;" % (q, K, i))
            c2 = self.sub(ctx, cs=ctx["cs"] + [(c, L)])
            self.emit(b, "for (int %s = 0; %s < %s; %s++) {" % (c, c, L, c))
            if r.random() < 0.15:
                self.emit(b + 1, "*%s = %s;" % (q, self.body_expr(c2)))
                self.emit(b + 1, "%s++;" % q)
            else:
                self.emit(b + 1, "%s[%s] = %s;" % (q, c, self.body_expr(c2)))
            self.emit(b, "}")

    # ---- function-level stages ----

    def stage_tmp(self, ind, state):
        """A malloc'd array of the function: memset or memcpy, a map writing it (maybe under
        a branch), later loops reading it; maybe copied into y."""
        r, w = self.r, self.fresh("tw")
        self.headers |= {"stdlib.h", "string.h"}
        k = r.randrange(3)
        if k == 0:
            self.pre.append("double *%s = (double *)malloc((n + 1) * sizeof(double));" % w)
            self.emit(ind, "memset(%s, 0, (n + 1) * sizeof(double));" % w)
        elif k == 1:
            self.pre.append("double *%s = malloc((n + 1) * sizeof *%s);" % (w, w))
            src = r.choice(["y", "y + n", "x"])  # (x: n*d elements, maybe only n)
            self.emit(ind, "memcpy(%s, %s, %s * sizeof(double));" % (w, src, "n" if src == "x" else "(n + 1)"))
        else:
            self.pre.append("double *%s = (double *)calloc(n + 1, sizeof(double));" % w)
        self.post.append("free(%s);" % w)
        self.emit(ind, "#pragma adsoac map")
        self.emit(ind, "for (int i = 0; i < n; i++) {")
        ctx = {"i": "i", "locals": [], "arrays": [], "cs": [], "legacy": True,
               "top": len(self.lines), "topind": ind + 1}
        if r.random() < 0.5:
            self.lstmt(ctx, ind + 1)
        upd = "%s[i] = %s;" % (w, self.body_expr(ctx))
        if r.random() < 0.5:  # (the other elements: zeros, or what memcpy copied)
            upd = "if (%s) %s" % (self.cond(ctx), upd)
        self.emit(ind + 1, upd)
        self.emit(ind, "}")
        self.fl_reads.append(w)
        if r.random() < 0.4:
            self.emit(ind, "memcpy(%s, %s, n * sizeof(double));" % (r.choice(["y", "y + 2 * n", "&y[n]"]), w))
            self.written.add("y")
            state["y_written"] = True

    def stage_walk(self, ind, state):
        """A function-level sequential loop in one of C's forms, into a scalar."""
        r, w = self.r, self.fresh("wk")
        k = r.choice([0, 1, 2, 3, 4] * 6 + [5])  # (5: found/refused/pointer_step_write.c)
        src = "y" if state["y_written"] else "x"
        self.emit(ind, "double %s = 0.0;" % w)
        if k == 0:  # a pointer stepping through an array
            q = self.fresh("pq")
            self.emit(ind, "const double *%s = %s;" % (q, src))
            self.emit(ind, "for (int c = 0; c < n; c++) {")
            self.emit(ind + 1, "%s += *%s * %s;" % (w, q, r.choice(["0.5", "p[c % 8]", "a"])))
            self.emit(ind + 1, "%s++;" % q)
            self.emit(ind, "}")
        elif k == 1:  # counting down by 2, the index read after the loop
            c = self.fresh("c")
            self.emit(ind, "int %s;" % c)
            self.emit(ind, "for (%s = n - 1; %s >= 0; %s -= 2) %s += %s[%s] * %s[%s];" % (c, c, c, w, src, c, src, c))
            self.emit(ind, "%s += 0.25 * %s;" % (w, c))
        elif k == 2:  # a while loop on active values (it stops where a value passes a bound)
            c = self.fresh("c")
            self.emit(ind, "int %s = 0;" % c)
            self.emit(ind, "while (%s < n && %s[%s] > -0.7) {" % (c, src, c))
            self.emit(ind + 1, "%s += %s[%s] * %s[%s];" % (w, src, c, src, c))
            self.emit(ind + 1, "%s++;" % c)
            self.emit(ind, "}")
            self.emit(ind, "%s += 0.1 * %s;" % (w, c))
        elif k == 3:  # break and continue
            self.emit(ind, "for (int c = 0; c < n; c++) {")
            self.emit(ind + 1, "if (%s[c] > 0.6) break;" % src)
            self.emit(ind + 1, "if (%s[c] < -0.2) continue;" % src)
            self.emit(ind + 1, "%s += %s[c] * %s;" % (w, src, r.choice(["a", "p[k]", "x[c]"])))
            self.emit(ind, "}")
        elif k == 4:  # a do loop converging (Newton), capped
            it = self.fresh("it")
            q = self.fresh("r")
            self.emit(ind, "double %s = 1.0 + a * a + (n > 0 ? %s[0] * %s[0] : 0.0);" % (q, src, src))
            self.emit(ind, "%s = 1.0;" % w)
            self.emit(ind, "int %s = 0;" % it)
            self.emit(ind, "do {")
            self.emit(ind + 1, "%s = 0.5 * (%s + %s / %s);" % (w, w, q, w))
            self.emit(ind + 1, "%s++;" % it)
            self.emit(ind, "} while (fabs(%s * %s - %s) > 1e-14 * %s && %s < 40);" % (w, w, q, q, it))
        else:  # y updated in place by a pointer stepping through it
            q = self.fresh("pq")
            self.emit(ind, "double *%s = y;" % q)
            self.emit(ind, "for (int c = 0; c < n; c += 1, %s++) {" % q)
            self.emit(ind + 1, "*%s = *%s * 0.5 + %s;" % (q, q, r.choice(["a", "p[1]", "x[c]"])))
            self.emit(ind + 1, "%s += *%s;" % (w, q))
            self.emit(ind, "}")
            self.written.add("y")
            state["y_written"] = True
        state["after"].append(w)

    def program(self):
        r = self.r
        for _ in range(r.choice([0, 0, 1])):
            self.helper()
        if r.random() < 0.2:  # an array of structs with an int field
            self.optional.add("pt")
        state = {"scalars": [], "y_written": False, "h_written": False, "lin": set(), "after": []}
        kinds = [("map", None)] * 5 + [("reduce", o) for o in "+ * max min".split()] + \
                [("scan", o) for o in "+ max".split()] + [("hist", o) for o in "+ * max min".split()]
        if r.random() < 0.1:  # a declared operator
            op = r.choice(["plus", "lse", "lin"])
            self.ops.append(op)
            kinds = [(k, op) for k in ("reduce", "scan") + (("hist",) if op != "lin" else ())]
        loops = [r.choice(kinds) for _ in range(r.choice([1, 1, 2]))]
        stages = [("loop", l) for l in loops]
        if r.random() < 0.2:
            stages.insert(r.randrange(len(stages) + 1), ("tmp", None))
        steps = r.random() < 0.3
        ind = 1
        if steps:
            self.emit(1, "double tot = 0.0;")
            if r.random() < 0.4:  # a local array of the function, updated in place per step
                hv = self.fresh("hv")
                self.emit(1, "double %s[4] = {0.5, a, 0.125, p[2]};" % hv)
                self.fl_arrays.append((hv, 4))
            if r.random() < 0.3:  # a ping-pong buffer copied with memcpy
                pv = self.fresh("pv")
                self.headers |= {"stdlib.h", "string.h"}
                self.emit(1, "double *%s = (double *)malloc((n + 1) * sizeof(double));" % pv)
                self.emit(1, "memcpy(%s, y, (n + 1) * sizeof(double));" % pv)
                self.post.append("free(%s);" % pv)
                self.fl_reads.append(pv)
            else:
                pv = None
            halves = r.random() < 0.3
            stripmined = r.random() < 0.3 and not halves  # (with halves: found/refused/halves_stripmine.c)
            if stripmined:
                self.emit(1, "#pragma adsoac stripmine(%d)" % r.choice([2, 3]))
            self.emit(1, "for (int t = 0; t < steps; t++) {")
            ind = 2
            for hv, _ in self.fl_arrays:
                self.emit(2, "for (int c = 3; c > 0; c--) %s[c] = %s[c - 1] * 0.9;" % (hv, hv))
                self.emit(2, "%s[0] = %s;" % (hv, r.choice(["0.0", "0.5 * %s[0]" % hv])))
                e = "%s[c] * %s" % (r.choice(["y", "x"]), r.choice(["0.1", "0.05 * x[c]"]))
                self.emit(2, "for (int c = 0; c < n; c++) %s[0] += %s;" % (hv, e))
            if halves:
                self.halves(2)
        for what, l in stages:
            if what == "tmp":
                self.stage_tmp(ind, state)
            else:
                self.lloop(l[0], l[1], ind, state)
        state["scalars"] = [v + ".b" if v in state["lin"] else v for v in state["scalars"]]
        if steps:
            # y[t]: an element per step, at an offset moving with it (strip-mined: seldom,
            # found/refused/yt_stripmine.c)
            if r.random() < 0.5 and (not stripmined or r.random() < 0.1):
                e = " + ".join(state["scalars"][:1] + [r.choice(["a", "p[k]", "0.5"])])
                self.emit(2, "y[t] = y[t] * 0.5 + %s;" % e)
                self.written.add("y")
                state["y_written"] = True
            if pv:
                self.emit(2, "memcpy(%s, y, n * sizeof(double));" % pv)
            if state["scalars"]:
                self.emit(2, "tot += %s;" % " + ".join(state["scalars"]))
            self.emit(1, "}")
            state["scalars"] = ["tot"] if state["scalars"] else []
            state["scalars"] += ["%s[1]" % hv for hv, _ in self.fl_arrays]
        if r.random() < 0.35:
            self.stage_walk(1, state)
        rets = state["scalars"] + state["after"]
        ret = "double" if rets else "void"
        self.lines += ["  " + l for l in self.post]
        if rets:
            self.emit(1, "return %s;" % " + ".join(rets))
        return self.assemble(ret, state)

    def halves(self, ind):
        """A state vector s in two halves (h, c) written through views at offsets that move
        with the step (an LSTM's layers): step t copies block t into block t + 1, then updates
        its halves in a map."""
        r = self.r
        self.optional.add("s")
        self.written.add("s")
        hs, cs = self.fresh("hs"), self.fresh("cs")
        self.emit(ind, "double *%s = &s[2 * n * (t + 1)], *%s = %s + n;" % (hs, cs, hs))
        self.emit(ind, "#pragma adsoac map")
        self.emit(ind, "for (int i = 0; i < 2 * n; i++) s[2 * n * (t + 1) + i] = s[2 * n * t + i];")
        self.emit(ind, "#pragma adsoac map")
        self.emit(ind, "for (int i = 0; i < n; i++) {")
        ctx = {"i": "i", "locals": [], "arrays": [], "cs": [], "legacy": True}
        g = self.fresh("g")
        self.emit(ind + 1, "double %s = 1.0 / (1.0 + exp(-(%s)));" % (g, self.expr(ctx, 1)))
        self.emit(ind + 1, "%s[i] = %s[i] * %s + (1.0 - %s) * tanh(%s[i] * %s);" % (
            cs, cs, g, g, hs, r.choice(["p[k]", "x[i]", "a"])))
        self.emit(ind + 1, "%s[i] = tanh(%s[i]) * %s;" % (hs, cs, r.choice(["p[1]", "x[idx[i]]", "1.5"])))
        self.emit(ind, "}")

    def assemble(self, ret, state):
        r = self.r
        zeros = r.random() < 0.3
        ties = r.random() < 0.2
        xfill = "fill(i % 4 == 1 ? 0.0 : r)" if zeros else "fill(floor(r * 3.0) / 2.0 + 0.125)" if ties else ""
        hfill = "fill(i == 2 ? 0.0 : r)" if zeros else "fill(floor(r * 2.0) / 2.0 + 0.125)" if ties else ""
        head = ["// %s: a random legacy-C program of tests/difftest/difftest.py" % self.name,
                "// e2e: sizes n=0,1,2,7,33 d=3,1,2,4,2 steps=2,3,0,1,3",
                "// e2e: seeds 2",
                "// e2e: int k = %d" % K,
                "// e2e: array x[n*d] range(-1,1) %s" % xfill,
                "// e2e: array p[%d] range(-1,1) %s" % (NP, "fill(floor(r * 3.0) / 2.0 + 0.125)" if ties else ""),
                "// e2e: array idx[n] range(0,n)",
                "// e2e: array bin[n] range(-1,%d)" % (NB + 1),
                "// e2e: array y[%s] range(-1,1)" % YLEN,
                "// e2e: array h[%d] range(-1,1) %s" % (NB, hfill)]
        if "s" in self.optional:
            head.append("// e2e: array s[2*n*(steps+1)+2] range(-1,1)")
        if "pt" in self.optional:
            head.append("// e2e: struct pt[n] id=range(0,n) w=range(-1,1)")
        if "q" in self.optional:
            head.append("// e2e: struct q[n] id=range(-5,5) w=range(-1,1)")
        head += ["// e2e: scalar a range(-1,1)",
                 "// e2e: tol grad_rtol=1e-5 grad_atol=1e-6"]
        head += ["#include <%s>" % h for h in sorted(self.headers)] + [""]
        if self.uses_struct:
            head += ["typedef struct { double u, v; } Pair;", ""]
        if "pt" in self.optional:
            head += ["typedef struct {", "  int id;", "  double w;", "} Pt;", ""]
        for op in dict.fromkeys(self.ops):
            head += OPERATORS[op] + [""]
        head += [h for _, h in self.helpers] + ([""] if self.helpers else [])
        for h in self.phelpers:
            head += PHELPERS[h] + [""]
        c = lambda a: "" if a in self.written else "const "
        params = "int n, int d, int k, int steps, double a, const double *x, const double *p, " \
                 "const int *idx, const int *bin, %sdouble *y, %sdouble *h" % (c("y"), c("h"))
        if "s" in self.optional:
            params += ", double *s"
        if "pt" in self.optional:
            params += ", const Pt *pt"
        if "q" in self.optional:
            params += ", Pt *q"
        head += ["#pragma adsoac grad", "%s %s(%s) {" % (ret, self.name, params)]
        body = ["  " + l for l in self.pre] + self.lines
        text = "\n".join([l.rstrip() for l in head] + body + ["}", ""])
        if r.random() < 0.15:  # single precision (the harness loosens its tolerances)
            text = text.replace("// e2e: tol grad_rtol=1e-5 grad_atol=1e-6\n", "")
            text = text.replace("double", "float")
        return text


def smooth(text):
    """The program without the fills that give exact zeros and ties (its kinks)."""
    return re.sub(r"^(// e2e: (?:array|scalar) \w+(?:\[[^\]]*\])? range\([^)]*\)) fill\(.*\)$", r"\1",
                  text, flags=re.M)


def generate(seed, count, space="mixed"):
    """Program k of a seed: with space "mixed", drawn (by a stream of its own) from the classic
    space (named dS_k, the same text as before the legacy space existed) or the legacy one
    (named lS_k); "classic" and "legacy" take every program from one space."""
    out = []
    for k in range(count):
        legacy = space == "legacy" or (space == "mixed" and random.Random("%d/%d/space" % (seed, k)).random() < 0.5)
        name = "%s%d_%d" % ("l" if legacy else "d", seed, k)
        cls = LegacyGen if legacy else Gen
        out.append((name, cls(random.Random("%d/%d" % (seed, k)), name).program()))
    return out


def failure_kind(msg):
    """What kind of failure msg is (None: not one the shrinker keeps): a refusal or an
    internal error (its message, numbers left out), a crash, output that does not compile, or
    wrong numbers (the first of primal, vjp, jvp, identity that failed)."""
    m = re.search(r"refused the program:\n(?:.*\n)*?.*?: error: (.*)", msg)
    if m:
        return "refused: " + re.sub(r"\d+", "N", m.group(1)).strip()
    m = re.search(r"internal error at [^:]*:\d+: (.*)", msg)
    if m:
        return "internal error: " + re.sub(r"\d+", "N", m.group(1)).strip()
    if re.search(r"adsoac --target=\w+ failed \(exit -\d+\)", msg):
        return "crash"
    if "compiling adsoac's output" in msg:
        return "compile"
    if "checks failed" in msg:
        for mode in ("primal", "vjp", "jvp/vjp identity", "jvp"):
            if re.search(r"^FAIL .*?: %s\b" % re.escape(mode), msg, re.M):
                return "checks: " + mode
        return "checks"
    return None


def selfcheck(args, work, name, sans=("msan", "asan")):
    """The program at work/name.c is valid: the original under MSan (no uninitialised read)
    and ASan+UBSan (no access out of bounds, no undefined behaviour), against the
    finite-difference stand-in for adsoac."""
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "e2e", "selftest"))
    import fd_fake
    fake = os.path.join(work, "fake")
    os.makedirs(fake, exist_ok=True)
    with open(os.path.join(fake, name + "_grad.c"), "w") as fh:
        fh.write(fd_fake.fake(os.path.join(work, name + ".c")))
    for san, cc in [(("memory", "clang") if s == "msan" else (True, args.cc)) for s in sans]:
        a = argparse.Namespace(**dict(vars(args), fake=fake, sanitize=san, cc=cc,
                                      build_dir=os.path.join(work, "selfcheck"),
                                      driver_env={"E2E_ID_RTOL": "1e300", "ASAN_OPTIONS": "detect_leaks=0"}))
        try:
            run_e2e.run_c(a, name)
        except run_e2e.Fail:
            return False
    return True


def shrink(args, path, out, check=True):
    """Deletes blocks and lines of a failing program, and size cases, while it still fails
    the same way (failure_kind) and stays valid C with defined behaviour (selfcheck: a
    deletion may leave a read uninitialised); writes the smallest to out."""
    lines = open(path).read().split("\n")
    name = os.path.basename(path)[:-2]
    work = os.path.join(args.build_dir, "shrink")
    os.makedirs(work, exist_ok=True)
    args.src_dir = work

    def run(ls):
        with open(os.path.join(work, name + ".c"), "w") as fh:
            fh.write("\n".join(ls))
        try:
            run_e2e.run_c(args, name)
            return None
        except run_e2e.Fail as e:
            return failure_kind(str(e))

    kind = run(lines)
    if kind is None:
        print("%s does not fail" % path)
        return 1
    print("shrinking: %s" % kind)

    def fails(ls):  # (a deletion leaves reads uninitialised, seldom out of bounds: ASan at the end)
        return run(ls) == kind and (not check or selfcheck(args, work, name, ("msan",)))

    def block_end(ls, k):  # the line closing the block that line k opens (or k)
        depth = ls[k].count("{") - ls[k].count("}")
        if depth <= 0 and not ls[k].strip().startswith("} else"):
            return k
        depth = max(depth, 1)
        for j in range(k + 1, len(ls)):
            depth += ls[j].count("{") - ls[j].count("}")
            if depth <= 0:
                return j
        return k

    keep = ("// e2e", "#include", "#if", "#endif", "#pragma adsoac grad", "  free(")
    if kind.startswith("refused"):  # (without its pragma, a loop is refused for other reasons)
        keep += ("#pragma adsoac",)
    changed = True
    seeds = next((k for k, l in enumerate(lines) if l.startswith("// e2e: seeds")), None)
    if seeds is not None and fails(lines[:seeds] + ["// e2e: seeds 1"] + lines[seeds + 1:]):
        lines[seeds] = "// e2e: seeds 1"
    while changed:
        changed = False
        m = next((k for k, l in enumerate(lines) if l.startswith("// e2e: sizes")), None)
        if m is not None:  # one size case (a column of the sizes line)
            cols = re.findall(r"(\w+)=([-\d,]+)", lines[m])
            if len(cols[0][1].split(",")) > 1:
                for c in range(len(cols[0][1].split(","))):
                    cand = list(lines)
                    cand[m] = "// e2e: sizes " + " ".join("%s=%s" % (v, vals.split(",")[c]) for v, vals in cols)
                    if fails(cand):
                        lines, changed = cand, True
                        break
        for k in range(len(lines) - 1, -1, -1):
            if k >= len(lines) or lines[k].startswith(keep) or not lines[k].strip() or \
                    lines[k].lstrip().startswith(tuple(x for x in keep if x.startswith("#pragma"))):
                continue
            if re.match(r"\s*(c|it)\d+\+\+;\s*$", lines[k]):  # (a while loop's step: it would not end)
                continue
            if k > 0 and lines[k - 1].startswith("#ifdef ADSOAC_E2E_REFERENCE"):  # (hist's guard in C)
                continue
            e = block_end(lines, k)
            cands = []
            if e > k and lines[k].strip().startswith("} else"):  # the else branch
                cands.append(lines[:k] + [lines[k].replace("} else {", "}")] + lines[e + 1:])
            elif e > k:  # the whole block
                cands.append(lines[:k] + lines[e + 1:])
            cands.append(lines[:k] + lines[k + 1:])
            for cand in cands:
                if fails(cand):
                    lines, changed = cand, True
                    break
    with open(out, "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))
    with open(os.path.join(work, name + ".c"), "w") as fh:
        fh.write("\n".join(lines))
    if check and not selfcheck(args, work, name, ("asan",)):
        print("(%s; written to %s, BUT it fails under ASan/UBSan: check it by hand)" % (kind, out))
        return 1
    print("(%s; written to %s)" % (kind, out))
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
    ap.add_argument("--space", choices=["mixed", "classic", "legacy"], default="mixed",
                    help="the programs' space: classic (annotated loops), legacy (legacy C), mixed (half each)")
    ap.add_argument("--shrink", metavar="FILE", help="shrink a failing program (to FILE.min.c)")
    ap.add_argument("--avoid", action="append", default=[], metavar="NAME[,NAME]",
                    help="leave out a known bug's trigger (none at present; each names its "
                         "program in found/)")
    ap.add_argument("--no-selfcheck", action="store_true",
                    help="with --shrink: do not check the candidates under the sanitizers")
    ap.add_argument("--selfcheck", nargs="?", const="asan", choices=["asan", "msan"],
                    help="check the generator, not adsoac: each program against a finite-difference "
                         "stand-in for adsoac (tests/e2e/selftest/fd_fake.py), built with ASan and "
                         "UBSan (no out-of-bounds access, no undefined behaviour), or with msan by "
                         "clang's MemorySanitizer (no uninitialised read)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    for v in a.avoid:
        AVOID.update(x for x in v.split(",") if x)
    if a.shrink:
        root = os.path.abspath(a.build_dir or tempfile.mkdtemp(prefix="difftest-"))
        args = argparse.Namespace(adsoac=os.path.abspath(a.adsoac), adsoac_flag=a.adsoac_flag,
                                  build_dir=root, nvcc=None, nvcc_flags="", fake=None,
                                  cc=os.environ.get("CC", "cc"), cflags=a.cflags, sanitize=False,
                                  cuda_run=False)
        return shrink(args, a.shrink, a.shrink[:-2] + ".min.c", not a.no_selfcheck)
    progs = generate(a.seed, a.count, a.space)
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
    if a.selfcheck:  # the originals, as the fake translation, under the sanitizers
        sys.path.insert(0, os.path.join(os.path.dirname(HERE), "e2e", "selftest"))
        import fd_fake
        args.fake = os.path.join(root, "fake")
        os.makedirs(args.fake, exist_ok=True)
        for name, _ in progs:
            with open(os.path.join(args.fake, name + "_grad.c"), "w") as fh:
                fh.write(fd_fake.fake(os.path.join(src, name + ".c")))
        args.sanitize = True if a.selfcheck == "asan" else "memory"
        if a.selfcheck == "msan":
            args.cc = "clang"
        args.driver_env = {"E2E_ID_RTOL": "1e300",  # (differences are not exactly linear)
                           "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
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
            msg = str(e)
            fails = [l for l in msg.splitlines() if l.lstrip().startswith("FAIL ")]
            derivs = all(re.search(r": (vjp|jvp) [\w.]+_(bar|dot)\b", l) for l in fails)
            text = open(os.path.join(src, name + ".c")).read()
            ties = "fill(floor(" in text
            if fn is not run_e2e.run_c or not fails or not derivs or \
                    not (ties or any("kink" in l for l in fails)):
                return "fail", msg
            # only derivatives failed, at inputs with kinks: exact zeros and ties put several
            # kinks along one direction, where the one-sided differences do not bound a valid
            # derivative (the kinks' one-sided slopes add up differently), and a tie whose
            # slopes differ by less than the driver's threshold (1e-3 of the largest slope) is
            # not seen as a kink, where the central difference is their mean; the same program
            # at generic points decides (with exact zeros but no ties, only where the driver
            # saw a kink: the zero rules of * are checked at smooth points)
            if smooth(text) == text:
                return "fail", msg
            with open(os.path.join(src, name + "_smooth.c"), "w") as fh:
                fh.write(smooth(text))
            try:
                fn(args, name + "_smooth")
                return "kink", msg
            except run_e2e.Fail as e2:
                return "fail", msg + "\n(and without the zeros and ties, %s_smooth:)\n%s" % (name, e2)
        except Exception as e:  # a harness bug is a failure too
            return "fail", "harness error: %r" % e

    keep = a.keep or os.path.join(root, "failed")
    counts, refusals, kinks = {"pass": 0, "refused": 0, "fail": 0, "kink": 0}, {}, []
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
            elif status == "kink":
                kinks.append(n)
                os.makedirs(os.path.join(keep, "kinks"), exist_ok=True)
                shutil.copy(os.path.join(src, n + ".c"), os.path.join(keep, "kinks"))
            elif status == "fail":
                os.makedirs(keep, exist_ok=True)
                shutil.copy(os.path.join(src, n + ".c"), keep)
                print("FAIL %s (kept in %s)\n    %s" % (label, keep, msg.replace("\n", "\n    ")[:3000]))
            sys.stdout.flush()
    print("refusals (%d):" % counts["refused"])
    for why, names in sorted(refusals.items(), key=lambda kv: -len(kv[1])):
        print("  %3d  %s  (e.g. %s)" % (len(names), why, names[0]))
    if kinks:
        print("failed only at kinks, passed without the zeros and ties (%d, kept in %s): %s"
              % (len(kinks), os.path.join(keep, "kinks"), " ".join(kinks)))
    print("%d programs, seed %d: %d passed, %d refused, %d failed%s"
          % (len(progs), a.seed, counts["pass"], counts["refused"], counts["fail"],
             ", %d passed only without the zeros and ties" % counts["kink"] if counts["kink"] else ""))
    # the closing line: a refusal is not a failure
    print("%d passed, %d failed" % (counts["pass"] + counts["refused"] + counts["kink"], counts["fail"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
