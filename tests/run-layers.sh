#!/usr/bin/env bash
# tests/run-layers.sh BUILD_DIR: the translator's layers (README "Design") hold.
#
# (a) Every #include "..." of the translator's sources points down or sideways, never up:
#       ir/                      on nothing
#       analysis/                on ir/
#       parser/                  on analysis/, ir/ (the map check of a parallel loop is an analysis)
#       transform/               on analysis/, ir/
#       ad/                      on transform/, analysis/, ir/
#       emit/                    on analysis/, ir/ (not transform/: what emit needs is an analysis)
#       translate.c, driver.c    on everything
#     runtime/ (embedded into every output) includes only runtime/.
# (b) The calls go the same way, and no circle between files: with nm on the objects of
#     adsoac_core, "A calls a function (or uses a global) defined in B" is an edge A -> B; an
#     edge up the layers fails, and so does a cycle of two or more files, named.  Recursion
#     inside one file is fine (a rule that recurses into statements goes through a function
#     pointer: Rev.block, Fwd.block, Lower.expr, Emit.block).
set -euo pipefail
build=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
exec python3 - "$root" "$build" <<'PY'
import os, re, subprocess, sys

root, build = sys.argv[1], sys.argv[2]

# the directories each layer may include (its own always)
LAYERS = {
    "ir": set(),
    "analysis": {"ir"},
    "parser": {"ir", "analysis"},
    "transform": {"ir", "analysis"},
    "ad": {"ir", "analysis", "transform"},
    "emit": {"ir", "analysis"},
    "runtime": set(),
    ".": {"ir", "analysis", "parser", "transform", "ad", "emit"},
}

def layer(rel):
    top = rel.split(os.sep)[0] if os.sep in rel else "."
    return top

def informational(rel):  # (none now: every file is held to the layers)
    return False

failed = False

# ---- (a) includes ----
# the layers' directories and the files at the top (tests/, bench/, examples/ and build or
# scratch directories are not the translator; a new directory of the library's sources is
# found by (b))
sources = []
for d in sorted(LAYERS):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
        dirnames[:] = [] if d == "." else sorted(dirnames)
        reldir = os.path.relpath(dirpath, root)
        sources += [os.path.normpath(os.path.join(reldir, fn)) for fn in sorted(filenames)]
nfiles = 0
for rel in sources:
    if not rel.endswith((".c", ".h", ".cuh")):
        continue
    lay = layer(rel)
    nfiles += 1
    with open(os.path.join(root, rel), errors="replace") as fh:
        for lineno, line in enumerate(fh, 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
            if not os.path.exists(os.path.join(root, target)):
                continue  # generated (rt_embed.h) or a system header
            tl = layer(target)
            if tl != lay and tl not in LAYERS.get(lay, set()):
                print('%s:%d: #include "%s": %s/ may not include %s/ (layers: README "Design")'
                      % (rel, lineno, m.group(1), lay, tl))
                failed = True
print("includes: %d files checked" % nfiles)

# ---- (b) calls between files ----
# the library's objects as its link step names them (an object of a file since moved or
# removed stays in the directory): link.txt (Makefiles) or build.ninja
objdir = os.path.join(build, "CMakeFiles", "adsoac_core.dir")
named = set()
for f in (os.path.join(objdir, "link.txt"), os.path.join(build, "build.ninja")):
    if os.path.exists(f):
        with open(f) as fh:
            named |= set(re.findall(r"CMakeFiles/adsoac_core\.dir/(\S+?\.c)\.o", fh.read()))
objs = sorted((rel, os.path.join(objdir, rel + ".o")) for rel in named
              if os.path.exists(os.path.join(objdir, rel + ".o")))
if not objs:
    print("no objects of adsoac_core under %s (build first)" % objdir)
    sys.exit(1)
for rel, _ in objs:
    if layer(rel) not in LAYERS:
        print("%s: directory %s/ is in no layer: add it to tests/run-layers.sh" % (rel, layer(rel)))
        failed = True
defined, undefined = {}, {}
for rel, path in objs:
    out = subprocess.run(["nm", "--defined-only", "-g", path], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRCWV":
            defined.setdefault(parts[2], rel)
    out = subprocess.run(["nm", "-u", path], capture_output=True, text=True, check=True).stdout
    undefined[rel] = {l.split()[-1] for l in out.splitlines() if l.strip()}
edges = {rel: set() for rel, _ in objs}
why = {}
for rel, syms in undefined.items():
    for s in sorted(syms):
        d = defined.get(s)
        if d and d != rel:
            edges[rel].add(d)
            why.setdefault((rel, d), s)

def sccs(nodes, edges):  # Tarjan's, iterative; components of two or more files
    index, low, on, stack, out, n = {}, {}, set(), [], [], [0]
    for v0 in sorted(nodes):
        if v0 in index:
            continue
        work = [(v0, iter(sorted(edges[v0] & nodes)))]
        index[v0] = low[v0] = n[0]; n[0] += 1; stack.append(v0); on.add(v0)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n[0]; n[0] += 1; stack.append(w); on.add(w)
                    work.append((w, iter(sorted(edges[w] & nodes))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out

def cycle(comp, edges):  # one circle through the component's first file, by BFS
    comp = set(comp)
    start = min(comp)
    prev, queue = {start: None}, [start]
    for v in queue:
        for w in sorted(edges[v] & comp):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                path.reverse()
                return path + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return [start]

def show(path):
    return " -> ".join("%s%s" % (a, " (%s)" % why[(a, b)] if b else "")
                       for a, b in zip(path, path[1:] + [None]))

# calls up the layers (a declaration that skipped the headers)
for a in sorted(edges):
    for b in sorted(edges[a]):
        la, lb = layer(a), layer(b)
        if la != lb and lb not in LAYERS.get(la, set()):
            msg = "%s calls %s of %s: %s/ may not call %s/" % (a, why[(a, b)], b, la, lb)
            if informational(a) or informational(b):
                print("info: " + msg)
            else:
                print(msg)
                failed = True

checked = {rel for rel, _ in objs if not informational(rel)}
for comp in sccs(checked, edges):
    print("circle between files: %s\n  (each of %s reaches the others)"
          % (show(cycle(comp, edges)), ", ".join(comp)))
    failed = True
for comp in sccs(set(edges), edges):
    if not set(comp) <= checked:
        print("info (being restructured): circle between files: " + show(cycle(comp, edges)))
print("calls: %d files, %d edges between them" % (len(objs), sum(len(e) for e in edges.values())))
sys.exit(1 if failed else 0)
PY
