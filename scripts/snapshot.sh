#!/usr/bin/env bash
# scripts/snapshot.sh: every output of the translator over every test input, for a
# before/after comparison of a refactoring (byte-identical generated code).
#
#   scripts/snapshot.sh ADSOAC OUTDIR        then: diff -r OUTDIR_BEFORE OUTDIR_AFTER
#
# Inputs: tests/e2e, tests/diag, tests/golden, tests/semantics, tests/bounds, examples,
# bench, and 300 programs of the differential tester (seeds 20261124, 1, 2).  Per input and variant (c, cuda, ir, and c with --no-fuse,
# --general-rule, --stripmine=2, and --emit=ir --no-fuse): OUTDIR/<path>.<variant> holds the
# output file, OUTDIR/<path>.<variant>.err stderr and the exit status.
set -uo pipefail
adsoac=$(realpath "$1")
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
# the differential tester's programs: the suite's seed and two more, 300 programs
gen=$out/difftest-src
mkdir -p "$gen"
python3 - "$root/tests/difftest" "$gen" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
import difftest
for seed, count in ((20261124, 40), (1, 130), (2, 130)):
    for name, text in difftest.generate(seed, count):
        with open(os.path.join(sys.argv[2], "s%d_%s.c" % (seed, name)), "w") as fh:
            fh.write(text)
PY
mapfile -t inputs < <( (find tests/e2e tests/diag tests/golden tests/semantics tests/bounds \
  tests/checkpoint tests/emit examples bench -name '*.c' 2>/dev/null; \
  find "$gen" -name '*.c') | sort)
variants=("c:--target=c" "cuda:--target=cuda" "ir:--emit=ir" "nofuse:--target=c --no-fuse"
  "general:--target=c --general-rule" "sm2:--target=c --stripmine=2"
  "irnofuse:--emit=ir --no-fuse")
for f in "${inputs[@]}"; do
  rel=${f#"$out"/}; d=$out/snap/$(dirname "$rel"); mkdir -p "$d"
  b=$(basename "$f")
  for v in "${variants[@]}"; do
    name=${v%%:*}; args=${v#*:}
    ext=c; [[ $name == cuda ]] && ext=cu
    rm -f "$tmp/o.$ext"
    # shellcheck disable=SC2086
    (cd "$(dirname "$f")" && "$adsoac" $args -I "$root/tests/e2e" "$b" -o "$tmp/o.$ext") \
      >"$d/$b.$name.err" 2>&1
    echo "exit $?" >>"$d/$b.$name.err"
    # (the output's own name appears in its #line directives)
    [[ -f $tmp/o.$ext ]] && sed "s|$tmp/|OUT/|g" "$tmp/o.$ext" >"$d/$b.$name"
  done
done
echo "snapshot: ${#inputs[@]} inputs x ${#variants[@]} variants in $out"
