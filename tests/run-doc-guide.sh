#!/usr/bin/env bash
# tests/run-doc-guide.sh ADSOAC [NVCC]: doc/cuda-guide.md shows the current output.  Each of
# its code blocks after a line `<!-- excerpt: NAME.cu -->` must be a run of consecutive lines
# of `adsoac --target=cuda NAME.c` run in doc/guide/ (so that its comments name NAME.c as
# the guide does); with NVCC, each NAME.cu compiles (nvcc -c).  And the guide's five programs
# (a reduction, a scan, a histogram, a map of reductions, a checkpointed time loop) keep
# everything on the device: every _async function of theirs says "The host waits for
# nothing." (and e2e.cuda_emu checks such claims by counting the waits).
set -euo pipefail
adsoac=$(realpath "$1")
nvcc=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root/doc/guide"
for src in *.c; do
  "$adsoac" --target=cuda "$src" -o "$tmp/${src%.c}.cu"
  if [ -n "$nvcc" ]; then
    "$nvcc" -O1 -arch=sm_90 -c "$tmp/${src%.c}.cu" -o "$tmp/${src%.c}.o"
  fi
done
python3 - "$root/doc/cuda-guide.md" "$tmp" <<'PY'
import os, re, sys
doc, tmp = sys.argv[1], sys.argv[2]
text = open(doc).read()
blocks = re.findall(r"<!-- excerpt: (\S+) -->\n```cuda\n(.*?)\n```", text, re.S)
if len(blocks) != text.count("<!-- excerpt:"):
    sys.exit("doc/cuda-guide.md: an excerpt marker without a ```cuda block right after it")
bad = 0
for name, body in blocks:
    out = open(os.path.join(tmp, name)).read().split("\n")
    want = body.split("\n")
    if not any(out[i:i + len(want)] == want for i in range(len(out) - len(want) + 1)):
        print("doc/cuda-guide.md: this excerpt of %s is not in the current output:\n%s\n"
              % (name, "\n".join(want[:6]) + ("\n..." if len(want) > 6 else "")))
        bad += 1
for name in sorted(os.listdir(tmp)):
    if not name.endswith(".cu"):
        continue
    cu = open(os.path.join(tmp, name)).read()
    fns = re.findall(r"^// (\w+)_async: .*\n(?:// .*\n)*?(// The host waits .*)$", cu, re.M)
    waits = [f for f, claim in fns if claim != "// The host waits for nothing."]
    if len(fns) != 3 or waits:
        print("%s: %d _async functions, these wait for their stream: %s" % (name, len(fns), " ".join(waits)))
        bad += 1
print("%d excerpts, %d out of date or waiting" % (len(blocks), bad))
sys.exit(1 if bad or not blocks else 0)
PY
