#!/usr/bin/env bash
# tests/gpu/prebuilt.sh build DIR [ADSOAC]: builds, on a machine without a GPU, everything the
#   GPU checks run (the e2e drivers over the CUDA output, as tests/gpu/run.sh builds them; the
#   GPU benchmarks, bench/gpu/run.sh), and packs only the binaries and the CUDA runtime they
#   load into DIR/gpu.tar.xz (about 20 MB: small enough to send to a GPU machine).
# tests/gpu/prebuilt.sh run DIR OUT [SECONDS]: on the GPU machine: runs the e2e drivers
#   (their numeric checks; --deterministic's outputs of DET_PROGRAMS also bitwise the same in 9
#   runs; the programs of DET_PROGRAMS also through the _async variants, cuda_shim.py
#   --async), compute-sanitizer memcheck over each (racecheck and synccheck over
#   those with block-level code), and the benchmarks; logs into OUT.  The sanitizers get what
#   is left of SECONDS (default 420) after the rest.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# (as e2e.deterministic.cuda compiles them)
DET_PROGRAMS="hist_sum hist_ops hist_twice scan_sum scan_ops scan_struct scan_fused scan_mixed_terms
  gather csr dot gmm kmeans heat lstm struct_reduce user_reduce reduce_ops windows color_sched nested
  inner_loops stencil md_stencils"
root=$(cd "$here/../.." && pwd)
mode=${1:?build or run} dir=$(mkdir -p "${2:?DIR}" && cd "$2" && pwd)
if [ "$mode" = build ]; then
  adsoac=$(realpath "${3:-$root/build/adsoac}")
  nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  work=${WORK:-$(mktemp -d)}
  python3 "$root/tests/e2e/run_e2e.py" --adsoac "$adsoac" --nvcc "$nvcc" --cuda-run --build-only \
    --build-dir "$work/e2e" -j "${JOBS:-2}" | grep -v "^PASS .*: built only" | tee "$dir/build.log"
  # --deterministic's CUDA output of programs of each kind, for its bits from run to run
  python3 "$root/tests/e2e/run_e2e.py" --adsoac "$adsoac" --nvcc "$nvcc" --cuda-run --build-only \
    --adsoac-flag=--deterministic --build-dir "$work/e2e-det" -j "${JOBS:-2}" $DET_PROGRAMS |
    grep -v "^PASS .*: built only" | tee -a "$dir/build.log"
  # the _async variants (a stream and a workspace of the shims'), the same programs
  python3 "$root/tests/e2e/run_e2e.py" --adsoac "$adsoac" --nvcc "$nvcc" --cuda-run --cuda-async --build-only \
    --build-dir "$work/e2e-async" -j "${JOBS:-2}" $DET_PROGRAMS | grep -v "^PASS .*: built only" | tee -a "$dir/build.log"
  rm -rf "$dir/e2e" "$dir/e2e-det" "$dir/e2e-async" "$dir/bench" "$dir/bench-det" "$dir/lib"
  for e in e2e e2e-det e2e-async; do
    for d in "$work"/$e/*/driver; do
      t=$(basename "$(dirname "$d")")
      mkdir -p "$dir/$e/$t" && cp "$d" "$dir/$e/$t/"
    done
  done
  NVCC=$nvcc "$root/bench/gpu/run.sh" --adsoac "$adsoac" --build-only "$work/bench"
  NVCC=$nvcc "$root/bench/gpu/run.sh" --adsoac "$adsoac" --adsoac-flag=--deterministic \
    --build-only "$work/bench-det"
  for e in bench bench-det; do
    for d in "$work"/$e/*/bench; do
      t=$(basename "$(dirname "$d")")
      mkdir -p "$dir/$e/$t" && cp "$d" "$dir/$e/$t/"
    done
  done
  mkdir -p "$dir/lib"
  cp -L "$(dirname "$(dirname "$(realpath "$nvcc")")")"/lib64/libcudart.so.[0-9]* "$dir/lib/"
  strip "$dir"/e2e/*/driver "$dir"/e2e-det/*/driver "$dir"/e2e-async/*/driver "$dir"/bench/*/bench \
    "$dir"/bench-det/*/bench
  tar cf - -C "$dir" e2e e2e-det e2e-async bench bench-det lib | xz -9 -T0 >"$dir/gpu.tar.xz" &&
    rm -rf "$dir/e2e" "$dir/e2e-det" "$dir/e2e-async" "$dir/bench" "$dir/bench-det" "$dir/lib"
  ls -la "$dir/gpu.tar.xz"
  exit 0
fi
if [ -f "$dir/gpu.tar.xz" ]; then  # (python's tarfile: the GPU machine may lack xz)
  x=$(mktemp -d)
  python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$dir/gpu.tar.xz" "$x"
  dir=$x
fi
out=$(mkdir -p "${3:?OUT}" && cd "$3" && pwd) budget=${4:-420}
start=$(date +%s)
export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L | tee "$out/gpu.txt"
# 1. the e2e suite's numeric checks through the CUDA output
PYTHONUNBUFFERED=1 python3 "$root/tests/e2e/run_e2e.py" --cuda-run --run-only --build-dir "$dir/e2e" \
  --adsoac /bin/false -j "${JOBS:-16}" >"$out/e2e.log" 2>&1
grep -c "^PASS" "$out/e2e.log" | sed 's/^/e2e passed: /'
grep "^FAIL\|passed, " "$out/e2e.log" | cut -c1-300
# 1b. --deterministic: the same checks, then the same bits in 9 runs
PYTHONUNBUFFERED=1 python3 "$root/tests/e2e/run_e2e.py" --cuda-run --run-only --determinism \
  --build-dir "$dir/e2e-det" --adsoac /bin/false -j "${JOBS:-16}" $DET_PROGRAMS >"$out/e2e-det.log" 2>&1
grep "^FAIL\|passed, " "$out/e2e-det.log" | cut -c1-300
# 1c. the _async variants on a stream of the shims', with a workspace
if [ -d "$dir/e2e-async" ]; then
  PYTHONUNBUFFERED=1 python3 "$root/tests/e2e/run_e2e.py" --cuda-run --run-only --build-dir "$dir/e2e-async" \
    --adsoac /bin/false -j "${JOBS:-16}" $DET_PROGRAMS >"$out/e2e-async.log" 2>&1
  grep "^FAIL\|passed, " "$out/e2e-async.log" | cut -c1-300
fi
# 2. the benchmarks
"$root/bench/gpu/run.sh" --run-only "$dir/bench" 2>&1 | tee "$out/bench.txt"
echo "# the same, translated with --deterministic"
"$root/bench/gpu/run.sh" --run-only "$dir/bench-det" 2>&1 | tee "$out/bench-det.txt"
# 3. sanitizers, in what time is left
left=$((budget - ($(date +%s) - start)))
echo "sanitizers: $left s"
san() {  # TOOL DRIVER: one line per driver
  local t=$1 d=$2 name log
  name=$(basename "$(dirname "$d")")
  log=$SANDIR/$t.$name.log
  timeout "$PER" compute-sanitizer --tool "$t" --error-exitcode 9 "$d" >"$log" 2>&1
  echo "$t $name exit $? $(grep -m1 "ERROR SUMMARY\|RACECHECK SUMMARY" "$log")"
}
export -f san
export SANDIR=$out/san PER=${PER:-120}
mkdir -p "$SANDIR"
ls "$dir"/e2e/*/driver | timeout "$((left > 10 ? left - 10 : 1))" xargs -P "${JOBS:-16}" -I{} bash -c 'san memcheck {}' \
  >"$out/memcheck.txt" 2>&1
sort "$out/memcheck.txt" | awk '$4 != 0 || $0 !~ /0 errors/' | head -40
echo "memcheck: $(grep -c "exit 0 .*0 errors" "$out/memcheck.txt") clean of $(ls "$dir"/e2e/*/driver | wc -l)"
left=$((budget - ($(date +%s) - start)))
if [ "$left" -gt 30 ]; then
  ls "$dir"/e2e/{hist,scan,reduce,user_reduce,struct_reduce,dot,gmm,kmeans}*/driver 2>/dev/null |
    timeout "$((left - 10))" xargs -P "${JOBS:-16}" -I{} bash -c 'san racecheck {}; san synccheck {}' >"$out/racecheck.txt" 2>&1
  sort "$out/racecheck.txt" | awk '$4 != 0 || $0 !~ /0 errors/' | head -40
  echo "racecheck/synccheck: $(grep -c "exit 0 .*0 errors" "$out/racecheck.txt") clean of $(wc -l <"$out/racecheck.txt")"
fi
# (the per-driver sanitizer logs stay in OUT/san; a tarball of them comes back)
tar czf "$out/san.tgz" -C "$out" san && rm -rf "$out/san"
