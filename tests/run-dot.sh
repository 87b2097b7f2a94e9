#!/usr/bin/env bash
# tests/run-dot.sh ADSOAC: --emit=dot output is a graph Graphviz renders (skipped without dot).
set -euo pipefail
adsoac=$(realpath "$1")
cd "$(dirname "$0")"
if ! command -v dot >/dev/null; then echo "dot (graphviz) not installed: skipped"; exit 0; fi
n=0
for c in golden/clauses.c golden/two_loops.c golden/nested.c e2e/mapreduce.c; do
  "$adsoac" --emit=dot "$c" | dot -Tsvg >/dev/null
  n=$((n + 1))
done
echo "$n graphs rendered"
