#!/usr/bin/env python3
"""End-to-end numeric tests of adsoac (architecture.md section 5.1 and 5.2).

For every test program tests/e2e/NAME.c the harness translates it with
`adsoac --target=c`, compiles the result, and runs a generated driver (NAME/driver.c in the
build directory, built on e2e_driver.h) that checks, for each size case and seed:
  primal    f gives the outputs of the original (NAME.c compiled by cc, the marked
            functions renamed f_ref), within rtol/atol;
  vjp       f_vjp gives the same outputs; every adjoint matches central finite differences of
            L = sum(seed * written array) + ret_bar * ret, computed with the double-precision
            original (f_ref64: NAME.c with -Dfloat=double); read-only adjoints accumulate onto
            random pre-existing values; written arrays' p_bar end as dL/d(initial contents);
  jvp       f_jvp gives the same outputs, tangents match finite differences along a random
            direction, and <y_dot, y_bar> == <x_dot, x_bar> against the f_vjp result;
  memory    no write outside any array (canaries), read-only arrays and tangents unchanged;
  signature the generated f, f_vjp, f_jvp have the prototypes of language.md 2.1/2.2;
  warnings  adsoac's output compiles with -Wall -Werror (no unused or uninitialized variables).
The reference is compiled with -DADSOAC_E2E_REFERENCE: `#ifdef ADSOAC_E2E_REFERENCE` can add,
for plain C only, the guard that adsoac's hist semantics imply (out-of-section bins skipped).
At a point where the one-sided differences disagree (a kink or a jump, e.g. log(x) guarded by
x > 0 at x == 0) a derivative must be finite and lie between the two one-sided differences.
With --nvcc, NAME [cuda] translates with --target=cuda and compiles with nvcc -c.  With
--cuda-run (a GPU) or --cuda-emu (no GPU: tests/cuda_emu's emulation, g++) the CUDA output,
behind host-pointer shims (tests/gpu/cuda_shim.py), replaces the C output in the checks.

Spec: comment lines `// e2e: ...` in NAME.c (lines before any `func` apply to every marked
function; lines after `func NAME` only to NAME and override the former):
  sizes n=0,1,7 m=1,3,5      one case per column; int params take the value of the same name
  omp-sizes n=1,7 m=3,5      the cases instead where the original runs as OpenMP (--selftest's
                             stand-in): for what OpenMP leaves unspecified (lastprivate after
                             a loop of no iteration), which the sequential C defines
  seeds 3                    random repetitions per case (default 3)
  source PATH                the program is the file PATH (relative to the test file: an
                             example kept once under examples/), the spec lines this file's
  link PATH                  a C file (relative to the test file) compiled and linked with
                             the translation and the references: a library whose functions
                             the program calls without their bodies (declared derivatives)
  nvcc FLAGS                 more flags for nvcc -c (--cuda): -rdc=true where kernels call
                             device functions defined in another file (a library)
  c-only REASON              --cuda does not compile this program's CUDA output (reported
                             as not compiled, with REASON: a documented limitation)
  no-emu REASON              --cuda-emu does not run this program (reported, with REASON:
                             e.g. too many kernel launches for the emulation's time)
  mpi 1,2,3                  an MPI program (language.md 10): built with --mpicc, run under
                             --mpirun with each number of ranks; every rank has inputs of its
                             own, L sums over the ranks, each finite difference moves one
                             element of one rank's inputs (e2e_driver.h); MPI_Comm
                             parameters get MPI_COMM_WORLD
  int k = EXPR               int scalar param k from a C expression of the size variables
  array x[LEN] range(LO,HI) fill(EXPR)
                             array param x: length LEN (C expression); values uniform in
                             [LO,HI) (default -1,1; int arrays: integers in [LO,HI)); with fill,
                             element i is EXPR, a C expression of i, r (the random draw) and
                             the size variables, e.g. fill(i % 3 == 0 ? 0.0 : r) forces zeros
  scalar a range(LO,HI) fill(EXPR)   a float scalar param (default range(-1,1))
  struct p[LEN] id=range(0,m) w=range(-1,1) fill(EXPR) v=...
                             an array-of-structs param (T *p, const T *p) of LEN elements,
                             or without [LEN] a struct passed by value (T p): per field, the
                             options of `array` (int fields get integers in [LO,HI); fields not
                             named: range(-1,1)).  T is a struct the program (or a header it
                             includes with "...") defines with float, double and integer
                             fields.  The harness splits p into one parameter per field, named
                             "p.w" in the checks: float fields are perturbed, differentiated
                             and checked like arrays (scalars), int fields are passive inputs
                             (outputs, compared exactly, where p is written); the int fields of
                             p_bar and p_dot hold a canary that the call must leave alone, and
                             no write may land outside the structs.
  written y ... / readonly y ...     override the default (non-const pointer = written; for
                             an array of structs, all its fields)
  tol rtol=R atol=A grad_rtol=R grad_atol=A id_rtol=R h=H     override tolerances:
                             outputs |got-ref| <= rtol*|ref| + atol*max(1, max|ref|);
                             derivatives |got-fd| <= grad_rtol*|fd| + grad_atol*max(1, max|fd|)
                             + rounding of the differences (step h*max(1,|x|)); identity
                             relative to the sum of |terms|. Defaults (double / float):
                             1e-12 1e-12 1e-6 1e-7 1e-10 1e-6 / 1e-5 1e-5 1e-3 1e-4 1e-4 1e-6
  func NAME                  the following lines concern only the marked function NAME
Reserved names in expressions: i, r, rng, V, sz.

Usage:
  tests/e2e/run_e2e.py --adsoac build/adsoac [--nvcc /usr/local/cuda/bin/nvcc] [-j 2]
                       [--build-dir DIR] [-v] [NAME|GLOB ...]
  tests/e2e/run_e2e.py --selftest [NAME|GLOB ...]     checks the harness, no adsoac needed:
      each hand-written translation tests/e2e/selftest/NAME_grad.c must pass, each deliberately
      wrong NAME_grad_VARIANT.c must fail with a message containing the text of its
      `// selftest: expect TEXT` line; then every test program (or those named) must pass
      against selftest/fd_fake.py, a finite-difference stand-in for adsoac (with the identity
      check disabled through E2E_ID_RTOL, as differences are not exactly linear).
  --adsoac-flag FLAG     pass FLAG to adsoac too (e.g. --general-rule).
  --fake-translator DIR  take DIR/NAME_grad.c (.cu) instead of running adsoac.
  --sanitize[=memory]    build adsoac's output, the references and the driver with ASan and UBSan
                         (=memory: MSan, uninitialised reads; with --cc a clang that drops -fopenmp).
  --opt -O0|-O1|-O2|-O3  the level for adsoac's output and the driver (default -O2; the suite's
                         repeated configurations use -O0: gcc -O2 is most of their time).
  --determinism          (with --adsoac-flag=--deterministic) after the checks, the driver's hash
                         mode (E2E_HASH) 3 times at each of 1, 2 and 3 threads, and an MPI
                         program under four pairs of Open MPI allreduce and reduce
                         algorithms: the same bits.
The last line printed is `N passed, M failed`; the exit status is 1 if anything failed.
"""
import argparse
import concurrent.futures
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MATHF = ("sqrt exp log sin cos tan pow fabs fmin fmax tanh log1p expm1 asin acos atan atan2 "
         "sinh cosh erf floor ceil round trunc lgamma tgamma cbrt hypot exp2 log2 log10 fma "
         "copysign erfc").split()
# defined when the original is compiled as the reference, so that a program can spell out for
# plain C what adsoac's semantics add (hist skips bins outside its section: language.md §3)
REFERENCE_DEF = "-DADSOAC_E2E_REFERENCE"
FLOAT64_DEFS = ["-Dfloat=double"] + ["-D%sf=%s" % (f, f) for f in MATHF]
INT_WORDS = {"int", "long", "short", "char", "unsigned", "signed", "size_t", "ptrdiff_t",
             "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
             "uint64_t", "intptr_t", "uintptr_t"}
QUALS = {"const", "restrict", "volatile", "__restrict", "__restrict__", "register"}
ISCAL, FSCAL, FARR, IARR = "E2E_ISCAL", "E2E_FSCAL", "E2E_FARR", "E2E_IARR"
COMM = "E2E_COMM"  # an MPI_Comm parameter: the driver passes MPI_COMM_WORLD
STRUCT = "struct"  # a struct parameter (by value, or an array of structs): split into fields


class SpecError(Exception):
    pass


def scalar_kind(words, typedefs):
    """'float'/'double' for a floating type, 'int' for an integer one, else None; typedefs
    maps the program's scalar typedef names to their types."""
    words = [typedefs.get(w, w) for w in words if w not in QUALS]
    words = " ".join(words).split()
    if words in (["float"], ["double"]):
        return words[0]
    return "int" if words and all(w in INT_WORDS for w in words) else None


def parse_structs(path):
    """The struct types of a test program and of the headers it includes ("..." beside it):
    {name: [(field, C type, 'float'|'double'|'int')]}, named as the program names them
    ("P" for a typedef, "struct P" for a tag); and the scalar typedefs."""
    texts, todo, seen = [], [path], set()
    while todo:
        p = todo.pop(0)
        if p in seen or not os.path.exists(p):
            continue
        seen.add(p)
        t = re.sub(r"/\*.*?\*/|//[^\n]*", " ", open(p).read(), flags=re.S)
        texts.append(t)
        todo += [os.path.join(os.path.dirname(p), h) for h in re.findall(r'#\s*include\s*"([^"]+)"', t)]
    text = "\n".join(reversed(texts))  # (headers first)
    typedefs = {}
    for m in re.finditer(r"\btypedef\s+([A-Za-z_][\w\s]*?)\s+(\w+)\s*;", text):
        if "struct" not in m.group(1).split():
            typedefs[m.group(2)] = m.group(1)
    structs, aliases = {}, {}
    for m in re.finditer(r"\b(typedef\s+)?struct\s*(\w*)\s*\{([^{}]*)\}\s*(\w*)\s*;", text):
        fields = []
        for decl in [d.strip() for d in m.group(3).split(";") if d.strip()]:
            parts = [x.strip() for x in decl.split(",")]
            words = parts[0].split()
            if len(words) < 2 or not all(re.match(r"^\w+$", x) for x in [words[-1]] + parts[1:]):
                fields = None  # (arrays, pointers, bit-fields: not a test's struct)
                break
            ctype = " ".join(typedefs.get(w, w) for w in words[:-1] if w not in QUALS)  # (for the driver)
            kind = scalar_kind(words[:-1], typedefs)
            if kind is None:
                fields = None
                break
            fields += [(n, ctype, kind) for n in [words[-1]] + parts[1:]]
        if fields is None:
            continue
        if m.group(2):
            structs["struct " + m.group(2)] = fields
        if m.group(1) and m.group(4):
            structs[m.group(4)] = fields
    for m in re.finditer(r"\btypedef\s+struct\s+(\w+)\s+(\w+)\s*;", text):
        aliases[m.group(2)] = "struct " + m.group(1)
    for a, tag in aliases.items():
        if tag in structs:
            structs[a] = structs[tag]
    return structs, typedefs


class Param:
    def __init__(self, text, structs=None, typedefs=None):
        # an array of arrays (double A[N][M], A[][M], A[n][m], (*A)[M]): a pointer to its
        # first row; self.decl keeps the declarator (%s for the name), self.rank its rank
        self.decl, self.rank = None, 1
        dims = re.findall(r"\[[^\]]*\]", text)
        ptr_to_rows = re.search(r"\(\s*\*\s*(\w+)\s*\)", text)
        if dims or ptr_to_rows:
            rank = len(dims) + bool(ptr_to_rows)
            name = ptr_to_rows.group(1) if ptr_to_rows else re.search(r"(\w+)\s*\[", text).group(1)
            if rank > 1:
                self.rank, self.decl = rank, re.sub(r"\b%s\b" % name, "%s", text, count=1)
            text = re.sub(r"\[[^\]]*\]|\(\s*\*\s*(\w+)\s*\)", "", text)
            text = re.sub(r"\b%s\b" % name, "", text).strip() + " *" + name
        toks = re.findall(r"\w+|\*|\[\s*\]", text)
        words = [t for t in toks if re.match(r"\w", t)]
        if len(words) < 2:
            raise SpecError("cannot parse parameter %r" % text)
        self.name, self.ptr = words[-1], sum(t == "*" or t.startswith("[") for t in toks)
        base = [w for w in words[:-1] if w not in QUALS]
        star = toks.index("*") if "*" in toks else len(toks)
        self.const = self.ptr and "const" in toks[:star]
        if self.ptr > 1:
            raise SpecError("parameter %s: pointers to pointers are not supported" % self.name)
        self.fields, self.field, self.sp = None, None, None
        if base in (["float"], ["double"]):
            self.ftype, self.kind = base[0], FARR if self.ptr else FSCAL
        elif base and all(w in INT_WORDS for w in base):
            self.ftype, self.kind = None, IARR if self.ptr else ISCAL
        elif base == ["MPI_Comm"] and not self.ptr:
            self.ftype, self.kind = None, COMM
        elif structs and " ".join(base) in structs:
            self.ftype, self.kind = None, STRUCT
            self.fields = structs[" ".join(base)]
        else:
            raise SpecError("parameter %s: unsupported type %r" % (self.name, text))
        self.base = " ".join(base)
        self.cast = ("const " if self.const else "") + self.base + (" *" if self.ptr else "")
        self.written = self.ptr and not self.const
        self.active = False
        self.slots = []  # its places among the function's parameters split into fields

    def has_float(self):
        return self.ftype is not None or any(k != "int" for _, _, k in self.fields or [])


class FieldParam:
    """Field `field` of struct parameter sp, as a parameter of its own ("p.w"): an array for
    an array of structs, a scalar for a struct passed by value."""
    def __init__(self, sp, field, ctype, kind):
        self.sp, self.field, self.base, self.name = sp, field, ctype, "%s.%s" % (sp.name, field)
        self.ptr, self.const, self.fields = sp.ptr, sp.const, None
        self.ftype = None if kind == "int" else kind
        self.kind = (FARR if sp.ptr else FSCAL) if self.ftype else (IARR if sp.ptr else ISCAL)
        self.written, self.active = sp.written, sp.active and self.ftype is not None


def mirror(p, f64=False):
    """The driver's copy of struct parameter p's type (E2E_S_P; f64: float fields as double,
    the layout of the double-precision reference)."""
    return "E2E_S%s_%s" % ("64" if f64 else "", re.sub(r"\W", "_", p.base))


class Spec:
    def __init__(self):
        self.sizes, self.seeds, self.ints, self.arrays, self.scalars = None, None, [], {}, {}
        self.omp_sizes = None
        self.written, self.readonly, self.tol, self.structs = set(), set(), {}, {}

    def merged(self, local):
        m = Spec()
        m.sizes = local.sizes or self.sizes
        m.omp_sizes = local.omp_sizes or self.omp_sizes
        m.seeds = local.seeds or self.seeds or 3
        m.ints = self.ints + local.ints
        m.arrays, m.scalars = {**self.arrays, **local.arrays}, {**self.scalars, **local.scalars}
        m.structs = {**self.structs, **local.structs}
        m.written, m.readonly = self.written | local.written, self.readonly | local.readonly
        m.tol = {**self.tol, **local.tol}
        return m


def calls(text):
    """'range(0, m) fill(f(i))' -> {'range': '0, m', 'fill': 'f(i)'} (balanced parentheses)."""
    out, pos = {}, 0
    while True:
        m = re.compile(r"\s*(\w+)\s*\(").match(text, pos)
        if not m:
            break
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        if depth:
            raise SpecError("unbalanced parentheses in %r" % text)
        out[m.group(1)], pos = text[m.end():j - 1].strip(), j
    if text[pos:].strip():
        raise SpecError("cannot parse %r" % text[pos:].strip())
    return out


def value_opts(text, what):
    o = calls(text)
    if set(o) - {"range", "fill"}:
        raise SpecError("%s: unknown option(s) %s" % (what, ", ".join(set(o) - {"range", "fill"})))
    rng = o.get("range", "-1, 1").split(",")
    if len(rng) != 2:
        raise SpecError("%s: range needs two bounds" % what)
    return {"lo": rng[0].strip(), "hi": rng[1].strip(), "fill": o.get("fill")}


def parse_spec_line(spec, line):
    head, _, rest = line.partition(" ")
    rest = rest.strip()
    if head in ("sizes", "omp-sizes"):
        cols = [(v, [int(x) for x in vals.split(",")])
                for v, vals in re.findall(r"(\w+)\s*=\s*([-\d,\s]+?)(?=\s+\w+\s*=|\s*$)", rest)]
        if not cols or len({len(c[1]) for c in cols}) != 1:
            raise SpecError("sizes: need name=v1,v2,... columns of equal length")
        sizes = ([c[0] for c in cols], list(zip(*[c[1] for c in cols])))
        if head == "sizes":
            spec.sizes = sizes
        else:
            spec.omp_sizes = sizes
    elif head == "seeds":
        spec.seeds = int(rest)
    elif head == "int":
        m = re.match(r"(\w+)\s*=\s*(.+)$", rest)
        if not m:
            raise SpecError("int: expected `int NAME = EXPR`")
        spec.ints.append((m.group(1), m.group(2)))
    elif head == "array":
        m = re.match(r"(\w+)\s*\[([^\]]+)\]\s*(.*)$", rest)
        if not m:
            raise SpecError("array: expected `array NAME[LEN] ...`")
        spec.arrays[m.group(1)] = dict(value_opts(m.group(3), m.group(1)), len=m.group(2))
    elif head == "struct":
        m = re.match(r"(\w+)\s*(?:\[([^\]]+)\])?\s*(.*)$", rest)
        if not m:
            raise SpecError("struct: expected `struct NAME[LEN] FIELD=OPTS ...` or `struct NAME FIELD=OPTS ...`")
        fields, text, depth, marks = {}, m.group(3), 0, []
        for j, ch in enumerate(text):  # FIELD= at the top level (not inside a fill(...))
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                fm = re.compile(r"(?<![\w=!<>])(\w+)\s*=(?!=)").match(text, j)
                if fm and (j == 0 or not re.match(r"\w", text[j - 1])):
                    marks.append((j, fm))
        for n, (j, fm) in enumerate(marks):
            end = marks[n + 1][0] if n + 1 < len(marks) else len(text)
            fields[fm.group(1)] = value_opts(text[fm.end():end], "%s.%s" % (m.group(1), fm.group(1)))
        if text.strip() and not marks:
            raise SpecError("struct %s: cannot parse %r" % (m.group(1), text))
        spec.structs[m.group(1)] = {"len": m.group(2), "fields": fields}
    elif head == "scalar":
        name, _, opts = rest.partition(" ")
        spec.scalars[name] = value_opts(opts, name)
    elif head in ("written", "readonly"):
        getattr(spec, head).update(rest.replace(",", " ").split())
    elif head == "tol":
        for k, v in re.findall(r"(\w+)\s*=\s*(\S+)", rest):
            if k not in ("rtol", "atol", "grad_rtol", "grad_atol", "id_rtol", "h"):
                raise SpecError("tol: unknown key %s" % k)
            spec.tol[k] = float(v)
    else:
        raise SpecError("unknown spec line %r" % line)


class Func:
    pass


def source_of(path):
    """The program a test runs: the test file itself, or the file its `// e2e: source PATH`
    line names (relative to the test: an example kept once, under examples/)."""
    m = re.search(r"^\s*//\s*e2e:\s*source\s+(\S+)\s*$", open(path).read(), re.M)
    return os.path.normpath(os.path.join(os.path.dirname(path), m.group(1))) if m else path


def links_of(path):
    """The files the test's `// e2e: link PATH` lines name (relative to the test file)."""
    return [os.path.normpath(os.path.join(os.path.dirname(path), m))
            for m in re.findall(r"^\s*//\s*e2e:\s*link\s+(\S+)\s*$", open(path).read(), re.M)]


def parse_program(path):
    """The marked functions of a test program, with their specs (from the test file, the
    code from its source)."""
    spec_text = open(path).read()
    path = source_of(path)
    src = open(path).read()
    glob_spec, local, cur = Spec(), {}, None
    for n, line in enumerate(spec_text.splitlines(), 1):
        m = re.match(r"\s*//\s*e2e:\s*(.*?)\s*$", line)
        if not m or m.group(1).startswith(("source ", "link ", "nvcc ", "c-only ", "no-emu ", "mpi ")):
            continue
        try:
            if m.group(1).startswith("func "):
                cur = local.setdefault(m.group(1).split()[1], Spec())
            else:
                parse_spec_line(cur or glob_spec, m.group(1))
        except (SpecError, ValueError) as e:
            raise SpecError("%s:%d: %s" % (path, n, e))
    code = re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)
    funcs = []
    structs, typedefs = parse_structs(path)
    # object-like macros that expand to qualifiers (#define RESTRICT __restrict__) or to a
    # scalar type (#define DATA_TYPE double), expanded in the marked functions' parameters
    qmacros = {m.group(1): m.group(2) or "" for m in re.finditer(
        r"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:[ \t]+([\w \t]*?))?[ \t]*$", code, re.M)
        if all(w in QUALS or w in INT_WORDS or w in ("float", "double")
               for w in (m.group(2) or "").split())}
    expand = lambda text: re.sub(r"\w+", lambda w: qmacros.get(w.group(0), w.group(0)), text)
    for m in re.finditer(r"^[ \t]*#[ \t]*pragma[ \t]+adsoac[ \t]+grad\b([^\n]*)\n([^{;]*)\{", code, re.M):
        h = re.match(r"\s*(.*?)\b(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)\s*$", m.group(2), re.S)
        if not h:
            raise SpecError("%s: cannot parse the function after `#pragma adsoac grad`" % path)
        f = Func()
        f.ret, f.name = " ".join(h.group(1).split()), h.group(2)
        ps = [expand(p).strip() for p in h.group(3).split(",")]
        f.params = [] if ps in ([""], ["void"]) else [Param(p, structs, typedefs) for p in ps]
        w = re.search(r"wrt\s*\(([^)]*)\)", m.group(1))
        f.wrt = set(re.findall(r"\w+", w.group(1))) if w else None
        f.spec = glob_spec.merged(local.pop(f.name, Spec()))
        rwords = [x for x in f.ret.split() if x not in QUALS | {"static", "inline", "extern"}]
        f.ret_kind = (0 if rwords == ["void"] else 1 if rwords in (["float"], ["double"])
                      else 2 if rwords and all(x in INT_WORDS for x in rwords) else None)
        if f.ret_kind is None:
            raise SpecError("%s: unsupported return type %r" % (f.name, f.ret))
        f.rtype = " ".join(rwords)
        f.static = "static" in f.ret.split()
        for p in f.params:
            if p.name in f.spec.written:
                p.written = True
            if p.name in f.spec.readonly:
                p.written = False
            if p.written and p.const:
                raise SpecError("%s: `written %s` but it is const" % (f.name, p.name))
            p.active = p.has_float() and (p.written or f.wrt is None or p.name in f.wrt)
        f.flat = []  # the parameters with every struct split into its fields
        for p in f.params:
            if p.kind != STRUCT:
                p.slots = [len(f.flat)]
                f.flat.append(p)
                continue
            if p.name not in f.spec.structs:
                raise SpecError("%s: struct parameter %s has no `struct` line" % (f.name, p.name))
            st = f.spec.structs[p.name]
            if bool(st["len"]) != bool(p.ptr):
                raise SpecError("%s: struct %s: give [LEN] for an array of structs (only)" % (f.name, p.name))
            unknown = set(st["fields"]) - {n for n, _, _ in p.fields}
            if unknown:
                raise SpecError("%s: struct %s has no field %s" % (f.name, p.name, ", ".join(sorted(unknown))))
            p.slots = list(range(len(f.flat), len(f.flat) + len(p.fields)))
            f.flat += [FieldParam(p, n, ct, k) for n, ct, k in p.fields]
        if len(f.flat) > 32:
            raise SpecError("%s: more than 32 parameters (struct fields counted)" % f.name)
        funcs.append(f)
    if local:
        raise SpecError("%s: `func %s` names no marked function" % (path, ", ".join(local)))
    if not funcs:
        raise SpecError("%s: no `#pragma adsoac grad` function" % path)
    return funcs


def any_float(f):
    return f.rtype == "float" or any(p.ftype == "float" for p in f.flat)


def prototypes(f, which, mirrored=False):
    """Prototype (or, with which='ref64', the double version) of f, f_ref, f_vjp, f_jvp.
    mirrored: struct types as the driver declares them (mirror)."""
    ps = []
    for p in f.params:
        cast, dtype = p.cast, p.ftype
        if p.kind == STRUCT:  # a derivative has the primal's type (language.md 2)
            dtype = mirror(p, which == "ref64") if mirrored else p.base
            cast = ("const " if p.const else "") + dtype + (" *" if p.ptr else "")
        if p.decl:  # an array of arrays: its declarator, or [*] rows in the driver (no macros)
            decl = p.decl if not mirrored else "%s%s (*%%s)%s" % (
                "const " if p.const else "", p.base, "[*]" * (p.rank - 1))
            ps.append(decl % p.name)
            unconst = re.sub(r"\bconst\b\s*", "", decl)
            if which == "vjp" and p.active:
                ps.append(unconst % (p.name + "_bar"))
            if which == "jvp" and p.active:
                # read only: const, as the pointer case below (a non-const `double (*A)[M]` too)
                ps.append((unconst if p.written else "const " + unconst) % (p.name + "_dot"))
            continue
        ps.append(cast + ("" if p.ptr else " ") + p.name)
        if which == "vjp" and p.active:
            ps.append("%s *%s_bar" % (dtype, p.name))
        if which == "jvp" and p.active:
            const = "" if p.written or not p.ptr else "const "
            ps.append("%s%s %s%s_dot" % (const, dtype, "*" if p.ptr else "", p.name))
    if f.ret_kind == 1 and which == "vjp":
        ps.append("%s ret_bar" % f.rtype)
    if f.ret_kind == 1 and which == "jvp":
        ps.append("%s *ret_dot" % f.rtype)
    name = f.name + ("" if which == "f" else "_" + which)
    text = "%s %s(%s);" % (f.rtype, name, ", ".join(ps) or "void")
    return re.sub(r"\bfloat\b", "double", text) if which == "ref64" else text


def struct_pack(f, p, mode, pre, post, args):
    """The code around a call that passes struct parameter p (and its derivative): structs of
    the program's layout filled from the parameters of its fields (A->p, A->s, A->iv; the
    derivatives' A->b, A->d, A->sd), filled back after the call."""
    f64 = mode == "ref64" and any_float(f)  # (else ref64 calls f_ref)
    T, k0 = mirror(p, f64), p.slots[0]
    fields = list(zip(p.slots, p.fields))
    ct = lambda kind, ctype: "double" if f64 and kind == "float" else ctype
    n = "A->len[%d]" % k0 if p.ptr else "1L"
    v = "e2e_s%d" % k0
    if p.ptr:
        pre.append("  %s *%s = (%s *)e2e_sbuf(%s, sizeof(%s));" % (T, v, T, n, T))
        pre.append("  for (long i = 0; i < %s; i++) {" % n)
        pre += ["    %s[i].%s = ((%s *)A->p[%d])[i];" % (v, fn, ct(kind, c), k) for k, (fn, c, kind) in fields]
        pre.append("  }")
        args.append("(%s%s *)%s" % ("const " if p.const else "", T, v))
        post.append("  for (long i = 0; i < %s; i++) {" % n)
        post += ["    ((%s *)A->p[%d])[i] = %s[i].%s;" % (ct(kind, c), k, v, fn) for k, (fn, c, kind) in fields]
        post.append("  }")
        post.append('  e2e_sdone(%s, %s, sizeof(%s), 1, 0, "%s %s");' % (v, n, T, mode, p.name))
    else:
        pre.append("  %s %s;" % (T, v))
        pre.append("  memset(&%s, 0, sizeof %s);" % (v, v))
        pre += ["  %s.%s = (%s)A->%s[%d];" % (v, fn, ct(kind, c), "iv" if kind == "int" else "s", k)
                for k, (fn, c, kind) in fields]
        args.append(v)
    if not p.active or mode not in ("vjp", "jvp"):
        return
    d, src = ("e2e_b%d" % k0, "b") if mode == "vjp" else ("e2e_d%d" % k0, "d")
    what = "%s %s_%s" % (mode, p.name, "bar" if mode == "vjp" else "dot")
    if mode == "jvp" and not p.ptr:  # T p_dot, by value
        pre.append("  %s %s;" % (T, d))
        pre.append("  memset(&%s, 0, sizeof %s);" % (d, d))
        pre += ["  %s.%s = %s;" % (d, fn, "(%s)E2E_CANARY" % c if kind == "int" else "(%s)A->sd[%d]" % (c, k))
                for k, (fn, c, kind) in fields]
        args.append(d)
        return
    pre.append("  %s *%s = (%s *)e2e_sbuf(%s, sizeof(%s));" % (T, d, T, n, T))
    pre.append("  for (long i = 0; i < %s; i++) {" % n)
    pre += ["    %s[i].%s = %s;" % (d, fn, "(%s)E2E_CANARY" % c if kind == "int" else "((%s *)A->%s[%d])[i]" % (c, src, k))
            for k, (fn, c, kind) in fields]
    pre.append("  }")
    const = mode == "jvp" and not p.written
    args.append("(%s%s *)%s" % ("const " if const else "", T, d))
    post.append("  {")
    post.append("    int e2e_ok = 1;")
    post.append("    for (long i = 0; i < %s; i++) {" % n)
    for k, (fn, c, kind) in fields:
        if kind == "int":
            post.append("      e2e_ok &= %s[i].%s == (%s)E2E_CANARY;" % (d, fn, c))
        elif not const:
            post.append("      ((%s *)A->%s[%d])[i] = %s[i].%s;" % (c, src, k, d, fn))
    post.append("    }")
    post.append('    e2e_sdone(%s, %s, sizeof(%s), e2e_ok, 1, "%s");' % (d, n, T, what))
    post.append("  }")


def call_code(f, mode):
    """The block of the call function's switch that calls f (ref, ref64, f, vjp or jvp)."""
    pre, post, args = [], [], []
    for p in f.params:
        k = p.slots[0]
        if p.kind == STRUCT:
            struct_pack(f, p, mode, pre, post, args)
            continue
        if p.kind == COMM:
            args.append("MPI_COMM_WORLD")
            continue
        cast = re.sub(r"\bfloat\b", "double", p.cast) if mode == "ref64" else p.cast
        if p.decl:  # an array of arrays: its rows' type converts from void *
            cast = "void *"
        args.append("(%s)A->%s[%d]" % (cast, {ISCAL: "iv", FSCAL: "s"}.get(p.kind, "p"), k))
        if mode == "vjp" and p.active:
            args.append("(%s *)A->b[%d]" % ("void" if p.decl else p.ftype, k))
        if mode == "jvp" and p.active:
            args.append("(%s)A->sd[%d]" % (p.ftype, k) if not p.ptr else
                        "(void *)A->d[%d]" % k if p.decl else
                        "(%s%s *)A->d[%d]" % ("" if p.written else "const ", p.ftype, k))
    if f.ret_kind == 1 and mode == "vjp":
        args.append("(%s)A->rbar" % f.rtype)
    if f.ret_kind == 1 and mode == "jvp":
        args.append("(%s *)A->rdot" % f.rtype)
    name = f.name + {"f": "", "ref64": "_ref64" if any_float(f) else "_ref"}.get(mode, "_" + mode)
    c = "%s(%s)" % (name, ", ".join(args))
    if not pre and not post:
        return ["%s; return 0.0;" % c if f.ret_kind == 0 else "return (double)%s;" % c]
    call = "  %s;" % c if f.ret_kind == 0 else "  e2e_r = (double)%s;" % c
    return ["{", "  double e2e_r = 0.0;"] + pre + [call] + post + ["  return e2e_r;", "}"]


def gen_driver(funcs, openmp_original=False):
    out = ['/* Generated by tests/e2e/run_e2e.py; do not edit. */', '#include "e2e_driver.h"', ""]
    done = set()
    for f in funcs:  # the struct types of the parameters, with the program's layout
        for p in f.params:
            for f64 in (False, True):
                if p.kind != STRUCT or mirror(p, f64) in done:
                    continue
                done.add(mirror(p, f64))
                out.append("typedef struct { %s } %s;" % (" ".join(
                    "%s %s;" % ("double" if f64 and k == "float" else c, n) for n, c, k in p.fields),
                    mirror(p, f64)))
    for f in funcs:
        for w in ("f", "ref", "vjp", "jvp") + (("ref64",) if any_float(f) else ()):
            out.append(prototypes(f, w, True))
    for f in funcs:
        s, fl = f.spec, any_float(f)
        if not s.sizes:
            raise SpecError("%s: no `sizes` line" % f.name)
        vars_, cases = s.omp_sizes if openmp_original and s.omp_sizes else s.sizes
        out += ["", "static void %s_setup(E2EVal *V, const long *sz, E2ERng *rng) {" % f.name]
        out += ["  long %s = sz[%d];" % (v, j) for j, v in enumerate(vars_)]
        out += ["  long %s = (long)(%s);" % (n, e) for n, e in s.ints]
        out += ["  (void)rng, (void)%s;" % v for v in vars_ + [n for n, _ in s.ints]]
        for k, p in enumerate(f.flat):
            dflt = {"lo": "-1", "hi": "1", "fill": None}
            if p.sp:  # a field of a struct parameter: the struct line's options
                o, n = s.structs[p.sp.name]["fields"].get(p.field, dflt), s.structs[p.sp.name]["len"] or "1"
            elif p.kind == COMM:
                out.append("  V[%d].len = 0;" % k)
                continue
            elif p.kind == ISCAL:
                if p.name not in vars_ and p.name not in [n for n, _ in s.ints]:
                    raise SpecError("%s: int parameter %s is neither a size nor an `int`" % (f.name, p.name))
                out.append("  V[%d].len = 1, V[%d].iv = e2e_ialloc(1), V[%d].iv[0] = %s;" % (k, k, k, p.name))
                continue
            elif p.kind == FSCAL:
                o, n = s.scalars.get(p.name, dflt), "1"
            elif p.name not in s.arrays:
                raise SpecError("%s: array parameter %s has no `array` line" % (f.name, p.name))
            else:
                o = s.arrays[p.name]
                n = o["len"]
            fld = "iv" if p.kind in (IARR, ISCAL) else "v"
            out.append("  V[%d].len = (long)(%s), V[%d].%s = e2e_%salloc(V[%d].len);"
                       % (k, n, k, fld, "i" if fld == "iv" else "d", k))
            out.append("  for (long i = 0; i < V[%d].len; i++) {" % k)
            if fld == "iv":
                out.append("    long r = e2e_randint(rng, (long)(%s), (long)(%s));" % (o["lo"], o["hi"]))
                out.append("    (void)r;")
                out.append("    V[%d].iv[i] = (long)(%s);" % (k, o["fill"] or "r"))
            else:
                out.append("    double r = e2e_unif(rng, (double)(%s), (double)(%s));" % (o["lo"], o["hi"]))
                out.append("    (void)r;")
                out.append("    V[%d].v[i] = e2e_round(%d, (double)(%s));"
                           % (k, p.ftype == "float", o["fill"] or "r"))
            out.append("  }")
        out.append("}")
        out += ["", "static double %s_call(int mode, E2EArgs *A) {" % f.name, "  switch (mode) {"]
        for mode, m in (("ref", "E2E_REF"), ("ref64", "E2E_REF64"), ("f", "E2E_PRIMAL"),
                        ("vjp", "E2E_VJP"), ("jvp", "E2E_JVP")):
            code = call_code(f, mode)
            out.append("  case %s: %s" % (m, code[0]))
            out += ["  " + c for c in code[1:]]
        out += ["  }", "  (void)A;", "  return 0.0;", "}", ""]
        out.append("static const E2EDesc %s_pd[] = {" % f.name)
        for p in f.flat:
            out.append('  {"%s", %s, %d, %d, %d, %s},' % (
                p.name, p.kind, p.ftype == "float", bool(p.written), p.active,
                "sizeof(%s)" % p.base if p.kind == IARR else "0"))
        out.append('  {"", 0, 0, 0, 0, 0}};')
        out.append("static const char *const %s_vars[] = {%s};"
                   % (f.name, ", ".join('"%s"' % v for v in vars_)))
        out.append("static const long %s_cases[] = {%s};"
                   % (f.name, ", ".join(str(x) for c in cases for x in c)))
        t = dict(rtol=1e-5, atol=1e-5, grad_rtol=1e-3, grad_atol=1e-4, id_rtol=1e-4, h=1e-6) if fl \
            else dict(rtol=1e-12, atol=1e-12, grad_rtol=1e-6, grad_atol=1e-7, id_rtol=1e-10, h=1e-6)
        t.update(s.tol)
        out.append('static const E2EFunc %s_F = {"%s", %d, %s_pd, %d, %d, %d, %s_setup, %s_call,'
                   % (f.name, f.name, len(f.flat), f.name, f.ret_kind, f.rtype == "float", fl,
                      f.name, f.name))
        out.append("  %d, %s_vars, %d, %s_cases, %d, %r, %r, %r, %r, %r, %r};"
                   % (len(vars_), f.name, len(cases), f.name, s.seeds, t["rtol"], t["atol"],
                      t["grad_rtol"], t["grad_atol"], t["id_rtol"], t["h"]))
    out += ["", "int main(void) {", "  e2e_init();"] + ["  e2e_run_func(&%s_F);" % f.name for f in funcs]
    out += ["  return e2e_finish();", "}", ""]
    return "\n".join(out)


class Fail(Exception):
    pass


class Refused(Fail):
    """adsoac rejected the program with a diagnostic (exit 1): not a wrong answer."""


def sh(cmd, what, timeout=300, env=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise Fail("%s: timed out after %ds\n  %s" % (what, timeout, " ".join(cmd)))
    if p.returncode != 0:
        raise Fail("%s failed (exit %d):\n  %s\n%s" % (what, p.returncode, " ".join(cmd),
                                                       (p.stderr + p.stdout).rstrip()[-4000:]))
    return p.stdout


def translate(args, name, src, target, out):
    ext = ".c" if target == "c" else ".cu"
    if args.fake is not None:
        fake = args.fake if args.fake.endswith(ext) else os.path.join(args.fake, name + "_grad" + ext)
        if not os.path.exists(fake):
            raise Fail("translation failed: no fake translation %s" % fake)
        shutil.copy(fake, out)
        return
    if os.path.exists(out):
        os.remove(out)
    cmd = [args.adsoac, "--target=" + target] + args.adsoac_flag + [src, "-o", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode == 1 and ": error: " in p.stderr:
        raise Refused("adsoac --target=%s refused the program:\n%s" % (target, p.stderr.rstrip()[-4000:]))
    if p.returncode != 0:
        raise Fail("adsoac --target=%s failed (exit %d):\n  %s\n%s" % (
            target, p.returncode, " ".join(cmd), (p.stderr + p.stdout).rstrip()[-4000:]))
    if not os.path.exists(out):
        raise Fail("adsoac exited 0 but wrote no %s" % out)


def run_c(args, name):
    """Translate, compile and check one program; returns the driver's PASS/FAIL lines."""
    sdir = getattr(args, "src_dir", None) or HERE
    src, bdir = os.path.join(sdir, name + ".c"), os.path.join(args.build_dir, name)
    os.makedirs(bdir, exist_ok=True)
    o = lambda n: os.path.join(bdir, n)
    ranks = mpi_ranks(src)
    if ranks and getattr(args, "mpi_one", False):
        ranks = [1]
    if getattr(args, "cuda_emu", False):
        no_emu = re.findall(r"^\s*//\s*e2e:\s*no-emu\s+(.*?)\s*$", open(src).read(), re.M)
        if no_emu:
            return ["SKIP not emulated: " + no_emu[0]]
    if getattr(args, "cuda_run", False):
        c_only = re.findall(r"^\s*//\s*e2e:\s*c-only\s+(.*?)\s*$", open(src).read(), re.M)
        if c_only:
            return ["SKIP not compiled: " + c_only[0]]
        if ranks:
            return ["SKIP not run on the GPU: an MPI program (its CUDA output is compiled)"]
    if getattr(args, "run_only", False):  # (drivers built elsewhere with --build-only)
        return run_driver(args, o, ranks)
    try:
        funcs = parse_program(src)
        driver = gen_driver(funcs, args.fake is not None)
    except SpecError as e:
        raise Fail("bad test spec: %s" % e)
    links = links_of(src)
    src = source_of(src)
    # the output keeps the program's #include "..." lines: its headers are found with -I
    cc, o = [args.cc, "-std=c11", "-I", HERE, "-I", sdir, "-I", os.path.dirname(src)], lambda n: os.path.join(bdir, n)
    if ranks:  # (an MPI program: the MPI compiler wrapper, the same compiler under it)
        cc = [args.mpicc] + cc[1:]
    san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"] if args.sanitize else []
    if args.sanitize == "memory":  # (clang: uninitialised reads)
        san = ["-fsanitize=memory", "-fno-omit-frame-pointer"]
    with open(src) as fh:
        user_main = re.search(r"\bint\s+main\s*\(", fh.read()) is not None
    # (gcc removes a static function nothing calls; the driver calls them)
    keep_static = ["-fkeep-static-functions"] if any(f.static for f in funcs) and "clang" not in args.cc else []
    extra_objs, link = [], []
    emu = getattr(args, "cuda_emu", False)
    if getattr(args, "cuda_run", False):  # the CUDA output behind host-pointer shims, on a GPU
        cu = o("prog_grad.cu")
        translate(args, name, src, "cuda", cu)
        shim = os.path.join(os.path.dirname(HERE), "gpu", "cuda_shim.py")
        p = subprocess.run([sys.executable, shim, os.path.join(sdir, name + ".c"), o("shim.cu"), cu] +
                           (["--async"] if getattr(args, "cuda_async", False) else []),
                           capture_output=True, text=True)
        if p.returncode:
            raise Fail("cuda_shim.py failed:\n" + p.stderr)
        nv = [args.nvcc, "-arch=sm_90", "-O2", "-DADSOAC_POISON_RAW", "-I", HERE, "-I", sdir, "-I", os.path.dirname(src)] + \
            (["-rdc=true"] if links else [])
        if emu:  # (--cuda-emu: g++ over the emulation of CUDA, tests/cuda_emu)
            emu_dir = os.path.join(os.path.dirname(HERE), "cuda_emu")
            for f in (cu, o("shim.cu")):
                with open(f) as fh:
                    text = fh.read()
                r = subprocess.run([sys.executable, os.path.join(emu_dir, "emu_rewrite.py")], input=text,
                                   capture_output=True, text=True)
                if r.returncode:
                    raise Fail("emu_rewrite.py failed on %s:\n%s" % (f, r.stderr))
                with open(f, "w") as fh:
                    fh.write(r.stdout)
            nv = ["g++", "-std=c++20", "-O1", "-pthread", "-x", "c++", "-DADSOAC_BLOCK=32", "-DADSOAC_POISON_RAW", "-I",
                  os.path.join(emu_dir, "include"), "-I", HERE, "-I", sdir, "-I", os.path.dirname(src)]
        if p.stdout.strip() != "INLINE":  # (else the shim includes the output: static kernels)
            sh(nv + p.stdout.split() + ["-c", cu, "-o", o("grad.o")], "compiling adsoac's CUDA output")
        sh(nv + ["-c", o("shim.cu"), "-o", o("shim.o")], "compiling the shims")
        if p.stdout.strip() == "INLINE":
            os.replace(o("shim.o"), o("grad.o"))
        if user_main:  # (the driver has one)
            sh(["objcopy", "--localize-symbol=main", o("grad.o")], "localizing the program's main")
        extra_objs = [o("shim.o")] if p.stdout.strip() != "INLINE" else []
        if links:  # a library the kernels call: device code too (its functions __host__ __device__)
            for k, lib in enumerate(links):
                sh(nv + ([] if emu else ["-x", "cu"]) + ["-c", lib, "-o", o("dlib%d.o" % k)],
                   "compiling " + os.path.basename(lib))
                extra_objs.append(o("dlib%d.o" % k))
            if not emu:
                sh(nv + ["-dlink", o("grad.o")] + extra_objs + ["-o", o("dlink.o")], "nvcc -dlink")
                extra_objs.append(o("dlink.o"))
        if emu:
            link = ["-lstdc++", "-pthread"]
        else:
            cudalib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(args.nvcc))), "lib64")
            link = ["-L" + cudalib, "-Wl,-rpath," + cudalib, "-lcudart", "-lstdc++"]
    else:
        grad = os.path.join(bdir, "prog_grad.c")
        translate(args, name, src, "c", grad)
        with open(o("sigcheck.c"), "w") as fh:  # the prototypes language.md 2.1/2.2 prescribe
            fh.write('#include "prog_grad.c"\n' + "\n".join(
                prototypes(f, w) for f in funcs for w in ("f", "vjp", "jvp")) + "\n")
        sh(cc + ["-fopenmp", "-fsyntax-only"] + args.cflags.split() + [o("sigcheck.c")], "signature check (language.md 2.1/2.2)")
        # adsoac's output compiles without a warning (no unused or uninitialized variables)
        strict = [] if args.fake is not None else ["-Wall", "-Werror"]
        # (scans in chunks of one iteration, a team for every loop: the driver's small n
        # reaches the chunked passes and the threads)
        sh(cc + [getattr(args, "opt", "-O2"), "-fopenmp", "-DADSOAC_SCAN_GRAIN=1", "-DADSOAC_PAR_MIN=0", "-DADSOAC_POISON_RAW"] + strict + san + keep_static + args.cflags.split() +
           ["-c", grad, "-o", o("grad.o")],
           "compiling adsoac's output (-Wall -Werror)" if strict else "compiling the translation")
        # a program with its own main (the driver has one), and static kernels (language.md
        # 2: f, f_vjp, f_jvp stay static): the driver reaches them through their symbols
        fix = ["--globalize-symbol=%s%s" % (f.name, w) for f in funcs if f.static for w in ("", "_vjp", "_jvp")]
        if user_main:
            fix.append("--localize-symbol=main")
        if fix:
            sh(["objcopy"] + fix + [o("grad.o")], "reaching the static kernels of adsoac's output")
    ren = ["-D%s=%s_ref" % (f.name, f.name) for f in funcs] + [REFERENCE_DEF]
    sh(cc + ["-O2"] + san + keep_static + ["-c", src, "-o", o("ref.o")] + ren, "compiling the reference")
    if any(f.static for f in funcs):
        sh(["objcopy"] + ["--globalize-symbol=%s_ref" % f.name for f in funcs if f.static] + [o("ref.o")],
           "reaching the reference's static kernels")
    # the program's other functions (legacy helpers are not static) are in adsoac's output
    # too: the references keep only their renamed marked functions global
    sh(["objcopy"] + ["--keep-global-symbol=%s_ref" % f.name for f in funcs] + [o("ref.o")],
       "localizing the reference's other symbols")
    objs = [o("driver.o"), o("grad.o"), o("ref.o")] + extra_objs
    for k, lib in enumerate(links):  # (with --cuda-run: for the references, C's names)
        sh(cc + ["-O2", "-c", lib, "-o", o("link%d.o" % k)], "compiling " + os.path.basename(lib))
        objs.append(o("link%d.o" % k))
    if any(any_float(f) for f in funcs):
        ren = ["-D%s=%s_ref64" % (f.name, f.name) for f in funcs] + [REFERENCE_DEF]
        mpi64 = ["-include", os.path.join(HERE, "e2e_mpi64.h")] if ranks else []  # (MPI_FLOAT)
        sh(cc + ["-O2"] + san + keep_static + mpi64 + ["-c", src, "-o", o("ref64.o")] + FLOAT64_DEFS + ren,
           "compiling the double reference")
        if any(f.static for f in funcs):
            sh(["objcopy"] + ["--globalize-symbol=%s_ref64" % f.name for f in funcs if f.static] +
               [o("ref64.o")], "reaching the double reference's static kernels")
        sh(["objcopy"] + ["--keep-global-symbol=%s_ref64" % f.name for f in funcs] + [o("ref64.o")],
           "localizing the double reference's other symbols")
        objs.append(o("ref64.o"))
        # the double reference calls the libraries compiled in double too: their symbols
        # renamed NAME_e2e64 in both
        for k, lib in enumerate(links):
            l64 = o("link%d_64.o" % k)
            sh(cc + ["-O2", "-c", lib, "-o", l64] + FLOAT64_DEFS, "compiling %s in double" % os.path.basename(lib))
            nm = subprocess.run(["nm", "--defined-only", "-g", l64], capture_output=True, text=True)
            syms = [l.split()[-1] for l in nm.stdout.splitlines() if len(l.split()) == 3]
            ren64 = ["--redefine-sym=%s=%s_e2e64" % (s, s) for s in syms]
            sh(["objcopy"] + ren64 + [l64], "renaming the double library's symbols")
            sh(["objcopy"] + ren64 + [o("ref64.o")], "renaming the double reference's calls")
            objs.append(l64)
    with open(o("driver.c"), "w") as fh:
        fh.write(driver)
    dcmd = cc + [getattr(args, "opt", "-O2"), "-Wall", "-Werror", "-I", HERE] + san + (["-DE2E_MPI"] if ranks else []) + \
        ["-c", o("driver.c"), "-o", o("driver.o")]
    key = repr((dcmd, driver, open(os.path.join(HERE, "e2e_driver.h")).read()))
    if not (os.path.exists(o("driver.o")) and os.path.exists(o("driver.key"))
            and open(o("driver.key")).read() == key):  # (the same driver as last time: kept)
        if os.path.exists(o("driver.key")):
            os.remove(o("driver.key"))
        sh(dcmd, "compiling the driver")
        with open(o("driver.key"), "w") as fh:
            fh.write(key)
    sh([cc[0]] + san + objs + ["-fopenmp", "-lm", "-o", o("driver")] + link, "linking the driver")
    if getattr(args, "build_only", False):
        return ["SKIP built only: " + o("driver")]
    lines = run_driver(args, o, ranks)
    if getattr(args, "determinism", False):
        lines += determinism(args, o, ranks)
    return lines


def mpi_ranks(src):
    """`// e2e: mpi 1,2,3`: an MPI program, run with each of these numbers of ranks."""
    m = re.findall(r"^\s*//\s*e2e:\s*mpi\s+([\d,\s]+?)\s*$", open(src).read(), re.M)
    return [int(x) for x in m[0].split(",")] if m else []


def exec_driver(args, o, ranks=(), extra_env=None):
    """Runs the driver (an MPI program: under mpirun with each number of ranks in turn)."""
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "4")
    env.update(getattr(args, "driver_env", {}))
    if ranks:  # (loopback only; as root in containers; more ranks than cores)
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="2",
                   OMPI_MCA_btl="self,vader", OMPI_MCA_btl_vader_single_copy_mechanism="none")
    env.update(extra_env or {})
    out, err, rc = "", "", 0
    for np_ in ranks or [0]:
        cmd = [args.mpirun, "--oversubscribe", "-np", str(np_), o("driver")] if np_ else [o("driver")]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        except subprocess.TimeoutExpired:
            raise Fail("the driver timed out after 300 s (%s)" % " ".join(cmd))
        out, err, rc = out + p.stdout, err + p.stderr, rc or p.returncode
    return subprocess.CompletedProcess(cmd, rc, out, err)


def determinism(args, o, ranks):
    """--determinism: the bits of every result of f, f_vjp and f_jvp (the driver's E2E_HASH
    mode: its files o("hash"), o("hash.RANK")) the same in 3 runs at each of 1, 2 and 3 threads."""
    first, at = None, None
    # (an MPI program: also under four of Open MPI's allreduce and reduce algorithms, which
    # combine the ranks' values in orders of their own)
    algs = [(t, r, None) for t in (1, 2, 3) for r in range(3)] + \
        [(1, 0, a) for a in (((1, 1), (3, 5), (4, 2), (6, 4)) if ranks else ())]
    for threads, run, alg in algs:
        for old in glob.glob(o("hash*")):
            os.remove(old)
        env = {"E2E_HASH": o("hash"), "OMP_NUM_THREADS": str(threads)}
        if alg:
            env.update(OMPI_MCA_coll_tuned_use_dynamic_rules="1",
                       OMPI_MCA_coll_tuned_allreduce_algorithm=str(alg[0]),
                       OMPI_MCA_coll_tuned_reduce_algorithm=str(alg[1]))
        p = exec_driver(args, o, ranks, env)
        got = sorted(l for path in glob.glob(o("hash*")) for l in open(path).read().splitlines())
        if p.returncode or not got:
            raise Fail("determinism: the driver's hash run failed (exit %d)\n%s" % (
                p.returncode, p.stderr[-2000:]))
        if first is None:
            first, at = got, "1 thread, run 1"
        elif got != first:
            diff = [b for a, b in zip(first, got) if a != b] or got
            raise Fail("determinism: %d threads, run %d%s differs from %s:\n    %s" % (
                threads, run + 1, ", MPI allreduce and reduce algorithms %d, %d" % alg if alg else "", at,
                "\n    ".join(diff[:10])))
    return ["PASS determinism: %d results bitwise identical in %d runs at 1, 2, 3 threads%s" % (
        len(first), len(algs), " and 4 MPI allreduce and reduce algorithms" if ranks else "")]


def run_driver(args, o, ranks=()):
    p = exec_driver(args, o, ranks)
    lines = p.stdout.splitlines()
    with open(o("driver.log"), "w") as fh:
        fh.write(p.stdout + p.stderr)
    fails = [l for l in lines if l.startswith("FAIL")]
    if p.returncode != 0 or fails:
        raise Fail("%d of %d checks failed (exit %d; log %s)\n%s" % (
            len(fails), sum(l[:4] in ("PASS", "FAIL") for l in lines), p.returncode,
            o("driver.log"), "\n".join(fails[:25] + [p.stderr.rstrip()[-2000:]]).rstrip()))
    return lines


def run_cuda(args, name):
    sdir = getattr(args, "src_dir", None) or HERE
    src, bdir = os.path.join(sdir, name + ".c"), os.path.join(args.build_dir, name)
    text = open(src).read()
    own = re.findall(r"^\s*//\s*e2e:\s*nvcc\s+(.*?)\s*$", text, re.M)
    c_only = re.findall(r"^\s*//\s*e2e:\s*c-only\s+(.*?)\s*$", text, re.M)
    if c_only:  # C that is not C++ in the code the CUDA output passes through (README)
        return ["SKIP not compiled: " + c_only[0]]
    is_mpi = bool(mpi_ranks(src))
    src = source_of(src)
    os.makedirs(bdir, exist_ok=True)
    cu = os.path.join(bdir, "prog_grad.cu")
    translate(args, name, src, "cuda", cu)
    # (a large output, e.g. the general hist rule's sorts and scans, takes nvcc minutes on a
    # loaded 2-core machine)
    mpi = []
    if is_mpi:  # (<mpi.h> from the MPI compiler wrapper's flags)
        mpi = subprocess.run([args.mpicc, "--showme:compile"], capture_output=True, text=True).stdout.split()
    sh([args.nvcc, "-arch=" + getattr(args, "nvcc_arch", "sm_90"), "-I", HERE, "-I", sdir, "-I", os.path.dirname(src), "-c", cu,
        "-o", cu + ".o"] + mpi + args.nvcc_flags.split() + " ".join(own).split(),
       "nvcc -c", timeout=1200)
    return []


def job(fn, args, name):
    try:
        lines = fn(args, name)
        if lines and lines[0].startswith("SKIP "):
            return True, lines[0][5:], []
        return True, "%d checks" % sum(l.startswith("PASS") for l in lines) if lines else "", lines
    except Fail as e:
        return False, str(e), []
    except Exception as e:  # a harness bug must show up as a failure, not a crash
        return False, "harness error: %r" % e, []


def selftest(args):
    """Hand-written translations: the correct ones must pass, the broken ones must fail."""
    results = []
    for path in sorted(glob.glob(os.path.join(HERE, "selftest", "*_grad*.c"))):
        m = re.match(r"^(.+?)_grad(?:_(.+))?\.c$", os.path.basename(path))
        expect = re.search(r"//\s*selftest:\s*expect\s+(.+?)\s*$", open(path).read(), re.M)
        args.fake = path
        args.build_dir = os.path.join(args.root, "selftest", os.path.basename(path)[:-2])
        ok, msg, _ = job(run_c, args, m.group(1))
        label = "selftest %s" % os.path.relpath(path, HERE)
        if m.group(2) is None:
            results.append((ok, label + " (correct: must pass)", msg))
        elif ok:
            results.append((False, label + " (broken: must fail)", "but every check passed"))
        else:
            caught = expect is None or expect.group(1) in msg
            results.append((caught, label + " (broken: must fail)", msg if caught else
                            "no failure mentions %r\n%s" % (expect.group(1), msg)))
    # every test program against a finite-difference stand-in: the specs give no false alarms
    sys.path.insert(0, os.path.join(HERE, "selftest"))
    import fd_fake
    names = sorted(os.path.basename(p)[:-2] for p in glob.glob(os.path.join(HERE, "*.c")))
    names = [n for n in names if not args.tests or any(fnmatch.fnmatch(n, t) for t in args.tests)]
    args.fake = os.path.join(args.root, "fd_fake")
    try:
        fd_fake.main(args.fake, names)
    except SpecError as e:
        return results + [(False, "selftest fd_fake", str(e))]
    args.build_dir = args.fake
    args.driver_env = {"E2E_ID_RTOL": "1e300"}  # differences are not exactly linear
    # (an MPI program on one rank: the stand-in's differences are one process's, which is
    # the whole program's only there)
    args.mpi_one = True
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        for n, (ok, msg, _) in zip(names, ex.map(lambda n: job(run_c, args, n), names)):
            results.append((ok, "selftest fd_fake %s (must pass)" % n, msg))
    return results


def report(ok, label, msg, args):
    first, _, rest = msg.partition("\n")
    print("%s %s%s" % ("PASS" if ok else "FAIL", label, ": " + first if first else ""))
    if rest and (not ok or args.verbose):
        print("    " + rest.replace("\n", "\n    "))
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tests", nargs="*", help="test names or globs (default: all)")
    ap.add_argument("--adsoac", help="the translator")
    ap.add_argument("--adsoac-flag", action="append", default=[], metavar="FLAG",
                    help="an extra adsoac option, e.g. --general-rule (repeatable)")
    ap.add_argument("--build-dir", help="scratch directory (default: a new temporary one)")
    ap.add_argument("--nvcc", help="also translate with --target=cuda and compile with nvcc -c")
    ap.add_argument("--nvcc-flags", default="", help="extra nvcc flags (e.g. -I runtime/include)")
    ap.add_argument("--nvcc-arch", default="sm_90",
                    help="nvcc -arch of --cuda-only's compilations (compute_90: PTX, checked by "
                         "ptxas, no machine code)")
    ap.add_argument("--cuda-run", action="store_true",
                    help="run every check on a GPU: the CUDA output behind host-pointer shims "
                         "(tests/gpu/cuda_shim.py) replaces the C output; needs --nvcc")
    ap.add_argument("--cuda-async", action="store_true",
                    help="with --cuda-run or --cuda-emu: call the functions' _async variants (a stream "
                         "and a workspace of the shim's; on the emulation, checks that they use only that "
                         "stream, allocate nothing once the workspace has what they need, and wait for "
                         "nothing where the output says so)")
    ap.add_argument("--cuda-emu", action="store_true",
                    help="as --cuda-run, on the CPU: the CUDA output compiled by g++ over "
                         "tests/cuda_emu's emulation of CUDA (CUB's scan and sort replaced)")
    ap.add_argument("--build-only", action="store_true",
                    help="build the drivers in --build-dir, run none (e.g. for a GPU machine)")
    ap.add_argument("--run-only", action="store_true",
                    help="run the drivers that --build-only left in --build-dir")
    ap.add_argument("--src-dir", help="take the programs from this directory (default: beside this script)")
    ap.add_argument("--cuda-only", action="store_true",
                    help="with --nvcc: only translate to CUDA and compile (no C-target checks)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--mpicc", default="mpicc")    # MPI programs (`// e2e: mpi 1,2,3`)
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--determinism", action="store_true",
                    help="also run every driver 3 times at each of 1, 2, 3 threads in its hash "
                         "mode: every result bitwise identical (with --adsoac-flag=--deterministic)")
    ap.add_argument("--cflags", default="", help="extra flags for compiling adsoac's C output")
    ap.add_argument("--opt", default="-O2", choices=["-O0", "-O1", "-O2", "-O3"],
                    help="the optimization level for adsoac's C output and the driver (-O0: the "
                         "suite's repeated configurations, where gcc -O2 is most of their time)")
    ap.add_argument("--fake-translator", dest="fake", help="DIR with NAME_grad.c instead of adsoac")
    ap.add_argument("--selftest", action="store_true", help="check the harness itself")
    ap.add_argument("--sanitize", nargs="?", const=True, default=False, choices=[True, "memory"],
                    help="ASan+UBSan for output, references and driver (=memory: MSan, with a "
                    "clang --cc and no OpenMP: uninitialised reads)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every check")
    args = ap.parse_args()
    args.root = args.build_dir = os.path.abspath(args.build_dir or tempfile.mkdtemp(prefix="e2e-"))
    args.cuda_run = args.cuda_run or args.cuda_emu  # (the emulation runs what a GPU would)
    if args.selftest:
        results = selftest(args)
    else:
        if not args.adsoac and args.fake is None:
            ap.error("--adsoac PATH (or --fake-translator DIR) is required")
        args.adsoac = args.adsoac and os.path.abspath(args.adsoac)
        sdir = os.path.abspath(args.src_dir) if args.src_dir else HERE
        args.src_dir = sdir
        names = sorted(os.path.basename(p)[:-2] for p in glob.glob(os.path.join(sdir, "*.c")))
        if args.tests:
            names = [n for n in names if any(fnmatch.fnmatch(n, t) for t in args.tests)]
        todo = [] if args.cuda_only else [(run_c, n, n) for n in names]
        # (--cuda-run compiles the CUDA output for its drivers)
        todo += [(run_cuda, n, n + " [cuda]") for n in names] if args.nvcc and not args.cuda_run else []
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
            futs = [(label, ex.submit(job, fn, args, n)) for fn, n, label in todo]
            results = []
            for label, fut in futs:
                ok, msg, lines = fut.result()
                results.append((ok, label, msg))
                if args.verbose and lines:
                    print("\n".join(lines))
                report(ok, label, msg, args)
    if args.selftest:
        for r in results:
            report(*r, args)
    npass = sum(ok for ok, _, _ in results)
    print("%d passed, %d failed" % (npass, len(results) - npass))
    return 0 if npass == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
