#!/usr/bin/env bash
# examples/mpi/run.sh EXE: runs the MPI example EXE with 1, 2 and 3 ranks (on this machine,
# loopback) and checks that each run's gradient check passes and that the objective and the
# gradient agree across the numbers of ranks (to reduction-order rounding: relative 1e-11).
set -euo pipefail
exe=$1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in 1 2 3; do
  mpirun --oversubscribe -np "$p" "$exe" >"$tmp/$p.out"
  cat "$tmp/$p.out"
  grep -q "gradient check: ok" "$tmp/$p.out"
done
# the numbers after "objective" and "gradient[..]", compared with the one-rank run's
python3 - "$tmp" <<'PY'
import re, sys
vals = {}
for p in (1, 2, 3):
    text = open("%s/%d.out" % (sys.argv[1], p)).read()
    vals[p] = [float(v) for v in re.findall(r"^(?:objective|gradient\[\s*\d+\])\s+(\S+)$", text, re.M)]
ok = all(len(vals[p]) == len(vals[1]) > 0 for p in (2, 3))
for p in (2, 3):
    for a, b in zip(vals[1], vals[p]):
        if abs(a - b) > 1e-11 * max(1.0, abs(a)):
            ok = False
            print("ranks %d: %r differs from one rank's %r" % (p, b, a))
print("the same objective and gradient with 1, 2 and 3 ranks: %s" % ("ok" if ok else "FAILED"))
sys.exit(0 if ok else 1)
PY
