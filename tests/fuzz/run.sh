#!/usr/bin/env bash
# tests/fuzz/run.sh: build the libFuzzer target and fuzz the whole translator.
#
#   tests/fuzz/run.sh [-b BUILD_DIR] [SECONDS]      fuzz for SECONDS (default 120)
#   tests/fuzz/run.sh [-b BUILD_DIR] --repro [FILE...] run the target once on each FILE
#                                                    (default: every reproducer in crashes/)
#   tests/fuzz/run.sh [-b BUILD_DIR] --minimize FILE minimize one crash into tests/fuzz/crashes/
#
# BUILD_DIR (default: the repository's build/) must be a configured CMake build of adsoac
# ('cmake -S . -B build && cmake --build build'): the fuzz build takes the tree-sitter C
# grammar (_grammar/package/src/parser.c) and the embedded runtime (gen/rt_embed.h) from it.
# The binary and the corpus live in BUILD_DIR/fuzz/; crashes go to tests/fuzz/crashes/.
# Environment: FUZZ_FORK=0 stops at the first crash instead of fuzzing on (fork mode, one
# child at a time); FUZZ_DEEP=0 leaves out the seeds at the nesting limits and fuzzes inputs
# of at most 4 KB (fast); FUZZ_ARGS adds libFuzzer flags.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
mode=fuzz
seconds=120
files=()
while (($#)); do
  case $1 in
  -b) build=$(cd "$2" && pwd); shift 2 ;;
  --repro) mode=repro; shift; files=("$@"); break ;;
  --minimize) mode=minimize; shift; files=("$@"); break ;;
  -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *[!0-9]*) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  *) seconds=$1; shift ;;
  esac
done

grammar=$build/_grammar/package/src/parser.c
embed=$build/gen/rt_embed.h
if [[ ! -f $grammar || ! -f $embed ]]; then
  echo "run.sh: $build is not a configured adsoac build (no $grammar or $embed);" >&2
  echo "run.sh: run 'cmake -S $root -B $build && cmake --build $build' first" >&2
  exit 2
fi

# ---- toolchain: clang with libFuzzer ----
cc=${CC_FUZZ:-}
if [[ -z $cc ]]; then
  for c in clang clang-16 clang-15 clang-14; do
    if command -v "$c" >/dev/null; then cc=$c; break; fi
  done
fi
fuzzer_ok() {
  [[ -n $cc ]] && echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long n){return 0;}' |
    "$cc" -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null
}
if ! fuzzer_ok; then
  echo "run.sh: installing clang and libFuzzer (clang-14, libclang-rt-14-dev)" >&2
  sudo=; ((EUID)) && sudo=sudo
  $sudo apt-get update -qq && $sudo apt-get install -y -qq clang-14 libclang-rt-14-dev >&2
  cc=clang-14
  fuzzer_ok || { echo "run.sh: $cc cannot link -fsanitize=fuzzer" >&2; exit 2; }
fi

# ---- build (the core's sources are the adsoac_core list of CMakeLists.txt) ----
mapfile -t core < <(awk '/add_library\(adsoac_core/{f=1} f{print} f&&/\)/{exit}' \
  "$root/CMakeLists.txt" | tr ' \t' '\n\n' | grep '\.c$')
((${#core[@]} > 5)) || { echo "run.sh: cannot read adsoac_core's sources" >&2; exit 2; }
out=$build/fuzz
bin=$out/fuzz_translate
mkdir -p "$out"
stale=0
[[ -x $bin ]] || stale=1
for f in "${core[@]/#/$root/}" "$root"/*.h "$root"/*/*.h "$here/fuzz_translate.c" "$embed" "$0"; do
  [[ $f -nt $bin ]] && stale=1
done
if ((stale)); then
  echo "run.sh: building $bin with $cc" >&2
  flags=(-std=c11 -g -O1 -fno-omit-frame-pointer -I"$root" -I"$build/gen"
         $(pkg-config --cflags tree-sitter 2>/dev/null))
  # the generated grammar: tables and a lexer, not ours; built without instrumentation
  "$cc" -O1 -g -c "$grammar" -I"$(dirname "$grammar")" -o "$out/grammar.o"
  "$cc" "${flags[@]}" -pthread -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    "$here/fuzz_translate.c" "${core[@]/#/$root/}" "$out/grammar.o" -o "$bin.tmp" \
    -ltree-sitter -lm
  mv "$bin.tmp" "$bin"
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
crashes=$here/crashes
mkdir -p "$crashes"
# max_len: the seeds at the depth limits (deep_seeds.py) are up to 100 KB; FUZZ_DEEP=0 leaves
# them out and fuzzes inputs of at most 4 KB (hundreds of executions a second instead of a
# few: a deep seed takes seconds)
# (timeout: a 100 KB expression at the limit takes about 10 s in this instrumented build, its
# three translations; 2 s in a release build)
deep=${FUZZ_DEEP:-1}
max_len=131072 timeout=30
[[ $deep == 0 ]] && max_len=4096 timeout=10
common=(-max_len=$max_len -timeout=$timeout -report_slow_units=$timeout -rss_limit_mb=2048
        -detect_leaks=0)

case $mode in
repro)
  if ((${#files[@]} == 0)); then
    mapfile -t files < <(find "$crashes" -maxdepth 1 -type f ! -name 'README*' | sort)
    ((${#files[@]})) || { echo "run.sh: no reproducers in $crashes" >&2; exit 0; }
  fi
  exec "$bin" "${common[@]}" "${files[@]}" ;;
minimize)
  for f in "${files[@]}"; do
    dst=$crashes/min-$(basename "$f" | sed 's/^min-//')
    "$bin" "${common[@]}" -minimize_crash=1 -max_total_time=60 -exact_artifact_path="$dst" "$f" \
      >"$out/minimize.log" 2>&1 || true
    [[ -f $dst ]] || cp "$f" "$dst"
    echo "$dst ($(wc -c <"$dst") bytes):"
    "$bin" "${common[@]}" "$dst" 2>&1 | grep -E 'ERROR|internal error|#[0-3] ' | head -6 || true
  done
  exit 0 ;;
esac

# ---- seed corpus: the project's inputs, copied fresh; the grown corpus is kept ----
corpus=$out/corpus
[[ $deep == 0 ]] && corpus=$out/corpus-small # (inputs of at most 4 KB)
seeds=$out/seeds
rm -rf "$seeds"
mkdir -p "$corpus" "$seeds"
cp "$root"/tests/e2e/*.c "$root"/tests/diag/*.c "$root"/examples/*.c "$seeds"/ 2>/dev/null || true
cp "$here"/seeds/*.c "$seeds"/ 2>/dev/null || true  # hand-written seeds: constructs the tests lack
[[ $deep == 0 ]] || python3 "$here/deep_seeds.py" "$seeds"  # generated: at the nesting limits

fork=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
[[ ${FUZZ_FORK:-1} == 0 ]] && fork=()
echo "run.sh: fuzzing for ${seconds}s; crashes in $crashes" >&2
set +e
"$bin" "${common[@]}" "${fork[@]}" -workers=1 -max_total_time="$seconds" \
  -dict="$here/adsoac.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
  ${FUZZ_ARGS:-} "$corpus" "$seeds" 2>&1 | tee "$out/fuzz.log" | grep -v -e '^#[0-9]*.*\(NEW\|REDUCE\|pulse\)' -e '^  NEW_FUNC'
rc=${PIPESTATUS[0]}
set -e
n=$(find "$crashes" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) |
  wc -l)
echo "run.sh: libFuzzer exited with $rc; $n raw artifact(s) in $crashes" >&2
((n == 0)) || echo "run.sh: minimize each with 'tests/fuzz/run.sh --minimize FILE'" >&2
exit "$rc"
