#!/usr/bin/env bash
# bench/gpu/run.sh [--adsoac PATH] [--adsoac-flag F] [--build-only DIR | --run-only DIR] [--n N]
#   [--reps R] [--only a,b]: GPU timings of adsoac's CUDA output (bench/gpu/gpu_main.cu).  Per kernel:
#   translate bench/NAME.c with --target=cuda, nvcc it with the driver, compile the C original
#   (NAME_seq) and the hand adjoint (NAME_hand) with cc, run: one row of primal ms, vjp ms,
#   vjp/primal and the primal's effective bandwidth (GB/s of the bytes it must read).
#   --build-only DIR builds the binaries into DIR (no GPU needed); --run-only DIR runs them
#   (a GPU machine).  --adsoac-flag F: translate with F too (--deterministic: its cost, beside a
#   run without).  Not a test: rows marked MISMATCH failed the check against the C code.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ADSOAC=$ROOT/build/adsoac
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
MODE=both DIR= N=16777216 REPS=21 ONLY=dot,prod,scanadd,histadd,histmax,gmm,heat FLAGS=
while [ $# -gt 0 ]; do
  case $1 in
    --adsoac) ADSOAC=$2; shift 2 ;;
    --adsoac-flag) FLAGS="$FLAGS $2"; shift 2 ;;
    --adsoac-flag=*) FLAGS="$FLAGS ${1#--adsoac-flag=}"; shift ;;
    --build-only) MODE=build DIR=$2; shift 2 ;;
    --run-only) MODE=run DIR=$2; shift 2 ;;
    --n) N=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    *) echo "usage: $0 [--adsoac PATH] [--adsoac-flag F] [--build-only DIR | --run-only DIR] [--n N] [--reps R] [--only a,b]" >&2; exit 2 ;;
  esac
done
DIR=${DIR:-$(mktemp -d)}
mkdir -p "$DIR"
# the kernel's function name in bench/NAME.c
fname() { case $1 in scanadd) echo cumloss ;; histadd) echo hsum ;; histmax) echo hmax ;; *) echo "$1" ;; esac; }
status=0
if [ "$MODE" != run ]; then
  for k in ${ONLY//,/ }; do
    f=$(fname "$k") b=$DIR/$k
    mkdir -p "$b"
    if ! { "$ADSOAC" --target=cuda $FLAGS "$ROOT/bench/$k.c" -o "$b/grad.cu" &&
           "$NVCC" -O3 -arch=sm_90 -c "$b/grad.cu" -o "$b/grad.o" &&
           "$NVCC" -O3 -arch=sm_90 -DK_"$k" -c "$HERE/gpu_main.cu" -o "$b/main.o" &&
           cc -O2 -D"$f"="$f"_seq -c "$ROOT/bench/$k.c" -o "$b/seq.o" &&
           cc -O2 -fopenmp -c "$ROOT/bench/${k}_hand.c" -o "$b/hand.o" &&
           "$NVCC" -O3 -arch=sm_90 "$b/main.o" "$b/grad.o" "$b/seq.o" "$b/hand.o" -Xcompiler -fopenmp \
             -o "$b/bench"; } >"$b/build.log" 2>&1; then
      echo "# $k: build failed ($b/build.log)"; tail -5 "$b/build.log"; status=1
    fi
  done
fi
if [ "$MODE" != build ]; then
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/# GPU: /'
  echo "# n = $N (gmm: n/100 points, K = 5, D = 8; heat: n/100 points, 100 steps), median of $REPS calls after 1 warm-up"
  printf "%-10s %10s %10s %10s %8s %10s %s\n" kernel n "primal ms" "vjp ms" vjp/pri "pri GB/s" check
  for k in ${ONLY//,/ }; do
    [ -x "$DIR/$k/bench" ] || { echo "$k: not built"; status=1; continue; }
    OMP_NUM_THREADS=${OMP_NUM_THREADS:-16} "$DIR/$k/bench" "$N" "$REPS" || status=1
  done
fi
exit $status
