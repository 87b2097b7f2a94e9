#!/usr/bin/env bash
# bench/compare.sh OLD NEW [run.sh options...]: the benchmarks of two commits side by side,
# measured in one run.  Builds adsoac at OLD and at NEW (any git revision; NEW may be
# "work", this working tree's build/adsoac) in temporary worktrees, then runs bench/run.sh
# (this tree's, with the options given: --only, --reps, --n) for each build in turn,
# ROUNDS times alternating (default 2: this machine's noise moves a column by up to 2x
# between runs minutes apart, less between neighbouring ones), and prints, per benchmark,
# each round's primal and vjp ms of both, and the ratio of the medians (new/old).
# Environment: ROUNDS, OMP_NUM_THREADS (passed through).  Not a test.
set -u
usage() { echo "usage: bench/compare.sh OLD NEW [bench/run.sh options]   (NEW may be 'work')" >&2; exit 1; }
[ $# -ge 2 ] || usage
old=$1 new=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d)
trap 'for w in "$tmp"/wt-*; do [ -d "$w" ] && git -C "$root" worktree remove --force "$w"; done; rm -rf "$tmp"' EXIT

build() { # REV NAME: prints the adsoac built at REV
  if [ "$1" = work ]; then
    cmake --build "$root/build" --target adsoac -j2 >/dev/null || return 1
    echo "$root/build/adsoac"
    return
  fi
  local w=$tmp/wt-$2
  git -C "$root" worktree add --detach "$w" "$1" >/dev/null 2>&1 || { echo "compare: no revision $1" >&2; return 1; }
  { cmake -S "$w" -B "$w/build" -DCMAKE_BUILD_TYPE=Release && cmake --build "$w/build" --target adsoac -j2; } \
    >"$tmp/build-$2.log" 2>&1 || { echo "compare: build of $1 failed ($tmp/build-$2.log)" >&2; return 1; }
  echo "$w/build/adsoac"
}
a_old=$(build "$old" old) || exit 1
a_new=$(build "$new" new) || exit 1
rounds=${ROUNDS:-2}
for r in $(seq 1 "$rounds"); do
  for side in old new; do
    bin=$a_old
    [ $side = new ] && bin=$a_new
    "$here/run.sh" --adsoac "$bin" "$@" 2>/dev/null | grep -v '^#' | grep -v '^benchmark' |
      awk -v s=$side -v r="$r" 'NF >= 7 { print s, r, $1, $5, $6 }' >>"$tmp/rows"
  done
done
echo "# bench/compare.sh $old -> $new, $rounds alternating rounds, OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}: primal ms and vjp ms per round"
awk '
  function med(s, n,   a, k, i, j, t) { k = split(s, a, " "); for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }; return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
  { key = $3; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    p[$1, key] = p[$1, key] " " $4; v[$1, key] = v[$1, key] " " $5 }
  END {
    printf "%-16s %-24s %-24s %-24s %-24s %8s %8s\n", "benchmark", "primal old", "primal new", "vjp old", "vjp new", "pri n/o", "vjp n/o"
    for (i = 1; i <= n; i++) {
      k = order[i]
      po = med(p["old", k]); pn = med(p["new", k]); vo = med(v["old", k]); vn = med(v["new", k])
      printf "%-16s %-24s %-24s %-24s %-24s %8.2f %8.2f\n", k, p["old", k], p["new", k], v["old", k], v["new", k], (po > 0 ? pn / po : 0), (vo > 0 ? vn / vo : 0)
    }
  }' "$tmp/rows"
