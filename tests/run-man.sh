#!/usr/bin/env bash
# tests/run-man.sh ADSOAC: the man page (doc/adsoac.1) renders with man(1) without groff
# warnings, and names exactly the options that `adsoac --help` lists.
set -euo pipefail
adsoac=$(realpath "$1")
page=$(cd "$(dirname "$0")/../doc" && pwd)/adsoac.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v man >/dev/null; then
  echo "man(1) is not installed (scripts/setup.sh installs man-db)" >&2
  exit 1
fi
MANWIDTH=100 MAN_KEEP_FORMATTING= man "$page" 2>"$tmp/man.err" | col -b >"$tmp/page.txt"
if [ -s "$tmp/man.err" ]; then cat "$tmp/man.err" >&2; exit 1; fi
grep -q '^SYNOPSIS' "$tmp/page.txt" || { echo "the page did not render" >&2; exit 1; }
if command -v groff >/dev/null; then
  groff -man -ww -z "$page" 2>"$tmp/groff.err" || true
  if [ -s "$tmp/groff.err" ]; then cat "$tmp/groff.err" >&2; exit 1; fi
fi
"$adsoac" --help >"$tmp/help.txt"
python3 - "$tmp/help.txt" "$tmp/page.txt" <<'PY'
import re, sys
def name(tok):
    return re.split(r"[=\[ ]", tok)[0].rstrip(",")
help_opts = {name(l.split()[0]) for l in open(sys.argv[1]) if re.match(r"^  -", l)}
text = open(sys.argv[2]).read()
sec = text.split("\nOPTIONS\n", 1)[1].split("\nTHE ANNOTATIONS\n", 1)[0]
man_opts = {name(l.split()[0]) for l in sec.splitlines() if re.match(r"^ {7}-", l)}
if help_opts != man_opts:
    print("--help only:", sorted(help_opts - man_opts), " man page only:", sorted(man_opts - help_opts))
    sys.exit(1)
print("man page: renders; options agree with --help:", " ".join(sorted(help_opts)))
PY
