#!/usr/bin/env bash
# tests/run-depth.sh ADSOAC: large and deep inputs (issue 16).  The nesting limits of
# parser/parser.h (README "Limitations"): the largest input each accepts translates (exit 0),
# the smallest one it refuses gets the limit's diagnostic (file:line:col: error:, the source
# line, a caret, a hint; exit 1; no output file), and nothing crashes (no sanitizer report, no
# signal).  The translation runs on a thread with a large stack (translate.c); without it, a
# sum of 12,000 terms overflowed the stack (3,000 in the sanitizer build).  Long chains of
# statements and nested sequential loops must translate within a few seconds: the passes
# that walked definitions or loop bodies again per value or per level were quadratic or
# exponential (30 nested loops carrying one scalar: 2^30 walks of the innermost body).
# The inputs are generated (python3).  Run it on the sanitizer build (ADSOAC_TESTMODE).
set -u
adsoac=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
fails=0
fail() { echo "[FAIL] $*"; fails=$((fails + 1)); }

# gen KIND N: a marked function whose body holds the construct N deep (or N long)
gen() {
  python3 - "$1" "$2" <<'EOF'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
fn = "#pragma adsoac grad\ndouble f(double a) {\n  double s = %s;\n  return s;\n}\n"
body = "#pragma adsoac grad\ndouble f(double a) {\n  double s = 0.0;\n%s  return s;\n}\n"
loop = ("#pragma adsoac grad\ndouble f(int m, const double *x) {\n  double s = 0.0;\n"
        "  for (int t = 0; t < m; t++) {\n    double a = x[t];\n%s  }\n  return s;\n}\n")
if kind == "sum":      # a + a + ... : n - 1 nested binary expressions
    src = fn % " + ".join(["a"] * n)
elif kind == "neg":    # - - ... - a
    src = fn % ("- " * n + "a")
elif kind == "not":    # !!...!(a > 0)
    src = fn % ("!" * n + "(a > 0)")
elif kind == "paren":  # ((...(a)...))
    src = fn % ("(" * n + "a" + ")" * n)
elif kind == "loopsum":  # the issue's shape: s = a + a + ... in a loop body
    src = loop % ("    s = " + " + ".join(["a"] * n) + ";\n")
elif kind == "blocks":   # { { ... } } in the body
    src = body % ("  " + "{" * n + "s = s + a;" + "}" * n + "\n")
elif kind == "ifs":      # if (a > 0) if (a > 1) ... one per line
    src = body % ("".join("  if (a > %d)\n" % k for k in range(n)) + "    s = s + a;\n")
elif kind == "returns":  # if (c) return ...; s = ...; repeated: each if takes the rest as its else
    src = body % "".join("  if (s > %d) return s;\n  s = s + a;\n" % k for k in range(n))
elif kind == "ternary":  # a > 0 ? a : a > 1 ? a : ... one per line
    src = fn % ("".join("a > %d ? a :\n    " % k for k in range(n)) + "a")
elif kind == "inlined":  # a helper nesting half of the ifs, called at the other half's depth
    h = n // 2
    src = ("static double g(double a) {\n  double r = a;\n" + "".join("  if (a > %d)\n" % k for k in range(h)) +
           "    r = r * a;\n  return r;\n}\n" + body % ("".join("  if (a > %d)\n" % k for k in range(n - h)) + "    s = s + g(a);\n"))
elif kind == "callsum":  # a helper's sum of n terms, called as the first term of an n-term sum
    src = ("static double g(double a) {\n  return " + " + ".join(["a"] * n) + ";\n}\n" +
           fn % ("g(a) + " + " + ".join(["a"] * (n - 1))))
elif kind == "macro":    # a macro expanding to n nested parentheses
    src = "#define DEEP " + "(" * n + "a" + ")" * n + "\n" + fn % "DEEP"
elif kind == "unmarked": # deep statements in a function that is not marked: passed through
    src = "static double g(double a) {\n  " + "{" * n + "a = a * 2;" + "}" * n + "\n  return a;\n}\n" + fn % "a"
elif kind == "treeblocks":  # deeper than the syntax tree's limit
    src = "#pragma adsoac grad\ndouble f(double a) {\n" + "{\n" * n + "a = a * 2;\n" + "}\n" * n + "  return a;\n}\n"
elif kind == "chain":    # n statements, each using the one before (SSA definition chains)
    src = loop % ("    double b = a;\n" + "    b = b * a + 1.0;\n" * n + "    s = s + b;\n")
elif kind == "mapchain": # an index built by n statements, in a map
    src = ("#pragma adsoac grad\nvoid f(int m, const double *x, double *y) {\n#pragma adsoac map\n"
           "  for (int i = 0; i < m; i++) {\n    int k = i;\n" + "    k = k * 1;\n" * n +
           "    y[i] = x[k] * x[i];\n  }\n}\n")
elif kind == "seqloops": # n nested sequential loops carrying one scalar
    src = ("#pragma adsoac grad\ndouble f(int m, const double *x) {\n  double s = 1.0;\n" +
           "".join("  for (int i%d = 0; i%d < m; i%d++)\n" % (k, k, k) for k in range(n)) +
           "    s = s * x[0] + 1.0;\n  return s;\n}\n")
elif kind == "maploops": # a map whose body nests n sequential loops carrying one scalar
    src = ("#pragma adsoac grad\nvoid f(int m, const double *x, double *y) {\n#pragma adsoac map\n"
           "  for (int i = 0; i < m; i++) {\n    double s = x[i];\n" +
           "".join("    for (int j%d = 0; j%d < 2; j%d++)\n" % (k, k, k) for k in range(n)) +
           "      s = s * x[i] + 1.0;\n    y[i] = s;\n  }\n}\n")
elif kind == "scanloops": # a scan whose body nests n sequential loops carrying one scalar
    src = ("#pragma adsoac grad\nvoid f(int m, const double *x, double *y) {\n  double acc = 0.0;\n"
           "#pragma adsoac scan(+: acc)\n  for (int i = 0; i < m; i++) {\n    double s = x[i];\n" +
           "".join("    for (int j%d = 0; j%d < 2; j%d++)\n" % (k, k, k) for k in range(n)) +
           "      s = s * x[i] + 1.0;\n    acc += s;\n    y[i] = acc;\n  }\n}\n")
elif kind == "reductions": # n nested parallel reductions
    src = "#pragma adsoac grad\ndouble f(int m, const double *x) {\n  double s0 = 0.0;\n"
    for k in range(n):
        src += "#pragma adsoac reduce(+: s%d)\n  for (int i%d = 0; i%d < m; i%d++) {\n    double s%d = 0.0;\n" % (k, k, k, k, k + 1)
    src += "    s%d = x[0];\n" % n
    for k in reversed(range(n)):
        src += "    s%d += s%d;\n  }\n" % (k, k + 1)
    src += "  return s0;\n}\n"
elif kind == "mined":    # n nested sequential loops, each strip-mined 16 levels
    src = ("#pragma adsoac grad\ndouble f(int m, const double *x) {\n  double s = 1.0;\n" +
           "".join("#pragma adsoac stripmine(16)\n  for (int i%d = 0; i%d < m; i%d++) {\n" % (k, k, k) for k in range(n)) +
           "    s = s * x[0] + 1.0;\n" + "  }\n" * n + "  return s;\n}\n")
else:
    sys.exit("unknown kind " + kind)
sys.stdout.write(src)
EOF
}

# run NAME KIND N EXPECT [MESSAGE] [SECONDS]: EXPECT 0 (translated) or 1 (refused with an
# error whose text contains MESSAGE), within SECONDS (default 120: the sanitizer build)
run() {
  local name=$1 kind=$2 n=$3 expect=$4 msg=${5:-} secs=${6:-120}
  gen "$kind" "$n" >"$name.c" || { fail "$name: cannot generate"; return; }
  rm -f "$name.out"
  timeout "$secs" "$adsoac" --target=c "$name.c" -o "$name.out" >/dev/null 2>"$name.err"
  local rc=$?
  # (ASan warns when an error exits from a deep stack: not a finding, not the diagnostic)
  grep -vE '^==[0-9]+==WARNING: ASan is ignoring requested __asan_handle_no_return|^False positive error reports may follow|^For details see https://github.com/google/sanitizers/issues/189' \
    "$name.err" >"$name.e2"
  mv "$name.e2" "$name.err"
  if grep -qE 'AddressSanitizer|runtime error|LeakSanitizer|internal error' "$name.err"; then
    fail "$name ($kind $n): $(grep -m1 -E 'AddressSanitizer|runtime error|LeakSanitizer|internal error' "$name.err")"
    return
  fi
  if [ $rc -eq 124 ]; then fail "$name ($kind $n): took more than $secs s"; return; fi
  if [ $rc -ne "$expect" ]; then
    fail "$name ($kind $n): exit status $rc, expected $expect: $(head -c 300 "$name.err")"
    return
  fi
  if [ "$expect" = 0 ]; then
    [ -s "$name.out" ] || { fail "$name ($kind $n): no output"; return; }
  else
    [ -e "$name.out" ] && { fail "$name ($kind $n): refused, but wrote the output"; return; }
    # file:line:col: error: MESSAGE, the source line, the caret, the hint
    if ! head -1 "$name.err" | grep -qE "^$name\.c:[0-9]+:[0-9]+: error: .*$msg" ||
       ! sed -n 3p "$name.err" | grep -qE '^ +\| *\^$' || ! sed -n 4p "$name.err" | grep -q '= hint: '; then
      fail "$name ($kind $n): expected 'error: ...$msg' with a caret and a hint, got: $(cut -c1-200 "$name.err" | head -4)"
      return
    fi
  fi
  echo "[PASS] $name ($kind $n: exit $rc)"
}

tree="expression nested more than 50000 levels deep"
nest="nested more than 256 levels deep"

# MAX_TREE_DEPTH (50000): the largest accepted and the smallest refused expressions
run sum_max sum 49996 0
run sum_over sum 49997 1 "$tree"
run neg_max neg 49995 0
run neg_over neg 49996 1 "$tree"
run paren_max paren 49995 0
run paren_over paren 49996 1 "$tree"
run tree_blocks treeblocks 50001 1 "statements nested more than 50000 levels deep"
run macro_ok macro 40000 0
run macro_over macro 60000 1 "$tree"
run inlined_sum callsum 30000 1 "counting the calls inlined"
# the issue's inputs: a 12,000-term sum in a loop body, 20,000-long unary chains
run issue_sum loopsum 12000 0
run issue_neg neg 20000 0
run issue_not not 20000 0
# MAX_NESTING (256) in marked functions, and the 7,000 nested blocks of the issue
run blocks_max blocks 256 0
run blocks_over blocks 257 1 "$nest"
run issue_blocks blocks 7000 1 "$nest"
run ifs_max ifs 256 0
run ifs_over ifs 257 1 "$nest"
run issue_ifs ifs 7000 1 "$nest"
run returns_max returns 256 0
run returns_over returns 257 1 "$nest"
run ternary_max ternary 256 0
run ternary_over ternary 257 1 "$nest"
run inlined_max inlined 256 0
run inlined_over inlined 257 1 "$nest"
run unmarked unmarked 1000 0
# long definition chains (walks of definitions: iteration or a budget, no deep recursion)
run chain chain 10000 0 "" 60
run mapchain mapchain 10000 0 "" 60
# nested sequential loops carrying one scalar: linear, not 2^levels
run seqloops30 seqloops 30 0 "" 10
run seqloops60 seqloops 60 0 "" 10
run maploops30 maploops 30 0 "" 10
run maploops60 maploops 60 0 "" 10
run scanloops30 scanloops 30 0 "" 10
run scanloops60 scanloops 60 0 "" 20
run reductions_max reductions 256 0 "" 60
# strip-mined levels nested in one another: at most 64 (the reverse re-runs inner levels)
run mined_max mined 4 0 "" 60
run mined_over mined 5 1 "strip-mined loops nested 80 levels deep"

if [ $fails -ne 0 ]; then
  echo "run-depth: $fails failed"
  exit 1
fi
echo "run-depth: all passed"
