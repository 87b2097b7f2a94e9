#!/usr/bin/env bash
# bench/run.sh: AD overhead benchmarks on the C target (OpenMP).
# For each benchmark NAME (function FN, annotated file SRC: bench/NAME.c, or a kernel of
# examples/ named in BENCHES) it, in one run on this machine:
#   translates SRC with adsoac (--target=c), or takes NAME_grad.c from --fake DIR;
#   builds NAME_bench from: SRC by cc (-DFN=FN_seq, -O2, no OpenMP; every other global
#   symbol made local, since the translation defines SRC's helpers too), NAME_grad.c
#   (-O2 -fopenmp), NAME_hand.c (-O2 -fopenmp) where it exists and the driver NAME_main.c;
#   runs it: checks f_vjp against the hand-written adjoint (without one: against finite
#   differences of the sequential C) once, then times seq / primal / vjp / hand
#   (1 warm-up + R reps, median) and prints a table row.
# Not a test: never part of pass/fail. See bench/README.md.
set -u

usage() {
  cat <<USAGE
usage: bench/run.sh (--adsoac PATH | --fake DIR) [--n N] [--reps R] [--only NAME[,NAME...]] [--build DIR]
       bench/run.sh --selftest      (pipeline check with bench/selftest, small n)
  --adsoac PATH  the adsoac translator to benchmark
  --fake DIR     take NAME_grad.c from DIR instead of running adsoac
  --n N          problem size: vector length, or as bench/README.md says (default 10000000)
  --reps R       timed repetitions, median reported (default 11)
  --only NAMES   run these benchmarks only (comma-separated; repeatable): ${BENCHES_NAMES}
  --build DIR    build here and keep it (default: a temporary directory, removed)
Environment: CC (default cc), OBJCOPY (default objcopy), OMP_NUM_THREADS (left as is).
Exit status: 0 ok; 1 usage, translation or build failure; 3 a correctness check warned.
USAGE
}

# NAME:FN or NAME:FN:SRC, FN being the function marked `#pragma adsoac grad` in SRC (a path
# relative to bench/; default NAME.c). The legacy_* benchmarks time the kernels of
# examples/legacy as they are (no copy here, no hand-written adjoint: bench/README.md).
BENCHES="dot:dot mapreduce:loss mapwrite:fit prod:prod maxval:maxval cprod:cprod scanadd:cumloss scanmul:cumprod iir:iir matscan:matscan histadd:hsum histmul:hprod histmax:hmax histlse:hlse heat:heat heat2:heat gmm:gmm"
for k in gmm:gmm_objective lstm:lstm_objective ba:ba_objective xs:xs_lookup csr:csr_residual stencil:heat2d \
         jacobi2d:kernel_jacobi_2d cg:conj_grad; do
  BENCHES="$BENCHES legacy_${k%%:*}:${k#*:}:../examples/legacy/${k%%:*}/${k%%:*}.c"
done
# kernels that are already OpenMP (examples/openmp): their seq-C column is the original
# compiled with -fopenmp (OMP_NAME=1), what the translated f must not be slower than
for k in logistic:logistic_loss softmax:softmax_xent deposit:deposit prefix:running partial:norms \
         cgstep:cg_step; do
  BENCHES="$BENCHES omp_${k%%:*}:${k#*:}:../examples/openmp/${k%%:*}/${k%%:*}.c"
done
OMP_omp_logistic=1 OMP_omp_softmax=1 OMP_omp_deposit=1 OMP_omp_prefix=1 OMP_omp_partial=1 OMP_omp_cgstep=1
# Static kernels in files with their own main (jacobi2d, cg): the objects' FN, FN_vjp, FN_jvp
# and FN_seq are made global and their mains local; the file-scope variables the driver sets
# (STATE_NAME) are made global, the sequential object's renamed seq_VAR.
STATE_legacy_cg="naa firstrow lastrow firstcol lastcol"
BENCHES_NAMES=
for b in $BENCHES; do BENCHES_NAMES="$BENCHES_NAMES, ${b%%:*}"; done
BENCHES_NAMES=${BENCHES_NAMES#, }

HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
OBJCOPY=${OBJCOPY:-objcopy}
ADSOAC= FAKE= N=10000000 REPS=11 ONLY= BUILD= SELFTEST=

while [ $# -gt 0 ]; do
  case $1 in
    --adsoac) ADSOAC=${2:?}; shift 2 ;;
    --adsoac=*) ADSOAC=${1#*=}; shift ;;
    --fake) FAKE=${2:?}; shift 2 ;;
    --fake=*) FAKE=${1#*=}; shift ;;
    --n) N=${2:?}; shift 2 ;;
    --n=*) N=${1#*=}; shift ;;
    --reps) REPS=${2:?}; shift 2 ;;
    --reps=*) REPS=${1#*=}; shift ;;
    --only) ONLY="$ONLY,${2:?}"; shift 2 ;;
    --only=*) ONLY="$ONLY,${1#*=}"; shift ;;
    --build) BUILD=${2:?}; shift 2 ;;
    --build=*) BUILD=${1#*=}; shift ;;
    --selftest) SELFTEST=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; usage >&2; exit 1 ;;
  esac
done

if [ -n "$SELFTEST" ]; then
  # The correct stand-ins must pass every check; the wrong ones must be flagged. Only the
  # benchmarks with stand-ins (selftest/NAME_grad.c): the legacy_* ones have none (a
  # stand-in is a hand-written gradient, which they lack by design).
  st=0 have=
  for b in $BENCHES; do
    [ -f "$HERE/selftest/${b%%:*}_grad.c" ] && have="$have,${b%%:*}"
  done
  "$0" --fake "$HERE/selftest" --only "${have#,}" --n 100000 --reps 3 || { echo "selftest: correct stand-ins were flagged" >&2; st=1; }
  for b in $BENCHES; do
    name=${b%%:*}
    [ -f "$HERE/selftest/${name}_grad.c" ] || continue
    out=$("$0" --fake "$HERE/selftest/wrong" --only "$name" --n 100000 --reps 3 2>&1)
    rc=$?
    echo "$out"
    if [ $rc -ne 3 ] || ! grep -q MISMATCH <<<"$out"; then
      echo "selftest: wrong $name gradient was NOT flagged" >&2; st=1
    fi
  done
  [ $st -eq 0 ] && echo "selftest: ok (correct stand-ins pass, wrong ones are flagged)"
  exit $st
fi

if [ -n "$ADSOAC" ] && [ -n "$FAKE" ] || [ -z "$ADSOAC$FAKE" ]; then
  echo "run.sh: give exactly one of --adsoac PATH or --fake DIR" >&2; usage >&2; exit 1
fi
case $N in ''|*[!0-9]*) echo "run.sh: --n must be a positive integer" >&2; exit 1 ;; esac
case $REPS in ''|*[!0-9]*) echo "run.sh: --reps must be a positive integer" >&2; exit 1 ;; esac
if [ "$N" -lt 1 ] || [ "$N" -gt 2147483647 ] || [ "$REPS" -lt 1 ]; then
  echo "run.sh: need 1 <= N <= 2147483647 (int n) and REPS >= 1" >&2; exit 1
fi
if [ -n "$ADSOAC" ]; then
  case $ADSOAC in */*) ADSOAC=$(cd "$(dirname "$ADSOAC")" && pwd)/$(basename "$ADSOAC") ;; esac
  command -v "$ADSOAC" >/dev/null || { echo "run.sh: adsoac not found: $ADSOAC" >&2; exit 1; }
fi
if [ -n "$FAKE" ]; then
  [ -d "$FAKE" ] || { echo "run.sh: --fake: no such directory: $FAKE" >&2; exit 1; }
  FAKE=$(cd "$FAKE" && pwd)
fi
# --only: a comma-separated list (a leading comma from the option parsing); each must exist
ONLY=${ONLY#,}
for o in ${ONLY//,/ }; do
  found=
  for b in $BENCHES; do [ "${b%%:*}" = "$o" ] && found=1; done
  [ -n "$found" ] || { echo "run.sh: unknown benchmark '$o' (have: $BENCHES_NAMES)" >&2; exit 1; }
done

if [ -n "$BUILD" ]; then
  mkdir -p "$BUILD" && B=$(cd "$BUILD" && pwd) || exit 1
else
  B=$(mktemp -d "${TMPDIR:-/tmp}/adsoac-bench.XXXXXX") || exit 1
  trap 'rm -rf "$B"' EXIT
fi

CFLAGS="-std=c11 -O2"
STATUS=0
WARNFILES=

# (GNU nproc answers OMP_NUM_THREADS when it is set: the machine's cores without it)
echo "# adsoac bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
echo "# cc: $($CC --version 2>/dev/null | head -n1); flags: $CFLAGS (+ -fopenmp except seq-C)"
if [ -n "$ADSOAC" ]; then echo "# gradient code: $ADSOAC --target=c ($("$ADSOAC" --version 2>/dev/null | head -n1))"
else echo "# gradient code: FAKE hand-made stand-ins from $FAKE (not adsoac output)"; fi
echo "# times: median of $REPS runs after 1 warm-up, in ms; check: f_vjp vs hand-written adjoint (rel. 1e-9), or (hand -) vs finite differences"
printf '%-14s %10s %4s %10s %10s %10s %10s %10s %8s %8s %8s  %s\n' \
  benchmark n thr "seq-C ms" "primal ms" "vjp ms" "hand ms" vjp/primal pri/seq vjp/seq vjp/hand check

fail_row() { printf '%-14s %10s %4s  %s\n' "$1" "$N" - "$2"; STATUS=1; }

for b in $BENCHES; do
  name=${b%%:*} fn=${b#*:} src=$name.c
  case $fn in *:*) src=${fn#*:} fn=${fn%%:*} ;; esac
  if [ -n "$ONLY" ]; then case ",$ONLY," in *",$name,"*) ;; *) continue ;; esac; fi
  src=$HERE/$src
  srcdir=$(dirname "$src")
  log=$B/$name.build.log
  : >"$log"
  # 1. translate (or take the stand-in); -I: the translation keeps SRC's #include "..." lines
  if [ -n "$ADSOAC" ]; then
    if ! "$ADSOAC" --target=c "$src" -o "$B/${name}_grad.c" >>"$log" 2>&1; then
      fail_row "$name" "FAILED: adsoac translation (see below)"; sed 's/^/    /' "$log"; continue
    fi
  else
    if [ ! -f "$FAKE/${name}_grad.c" ]; then fail_row "$name" "FAILED: no $FAKE/${name}_grad.c"; continue; fi
    cp "$FAKE/${name}_grad.c" "$B/${name}_grad.c"
  fi
  # 2. build the driver. The sequential object keeps only FN_seq global: SRC's other
  # functions (helpers, non-static in legacy code) are defined by the translation too.
  # Without NAME_hand.c the driver times no hand adjoint.
  hand=
  [ -f "$HERE/${name}_hand.c" ] && hand=$B/${name}_hand.o
  state_var=STATE_$name
  seqglob=(--globalize-symbol="${fn}_seq") seqsyms=(--keep-global-symbol="${fn}_seq")
  gradsyms=(--globalize-symbol="$fn" --globalize-symbol="${fn}_vjp" --globalize-symbol="${fn}_jvp"
            --localize-symbol=main)
  renames=()
  for v in ${!state_var:-}; do
    seqglob+=(--globalize-symbol="$v") seqsyms+=(--keep-global-symbol="$v")
    gradsyms+=(--globalize-symbol="$v")
    renames+=(--redefine-sym "$v=seq_$v")
  done
  omp_var=OMP_$name
  seqomp=
  [ -n "${!omp_var:-}" ] && seqomp=-fopenmp
  if ! { $CC $CFLAGS $seqomp -fkeep-static-functions -Wno-unknown-pragmas -I"$srcdir" "-D$fn=${fn}_seq" \
           -c "$src" -o "$B/${name}_seq.o" &&
         $OBJCOPY "${seqglob[@]}" "$B/${name}_seq.o" && $OBJCOPY "${seqsyms[@]}" "$B/${name}_seq.o" &&
         { [ ${#renames[@]} -eq 0 ] || $OBJCOPY "${renames[@]}" "$B/${name}_seq.o"; } &&
         $CC $CFLAGS -fkeep-static-functions -fopenmp -I"$srcdir" -c "$B/${name}_grad.c" -o "$B/${name}_grad.o" &&
         $OBJCOPY "${gradsyms[@]}" "$B/${name}_grad.o" &&
         { [ -z "$hand" ] || $CC $CFLAGS -fopenmp -c "$HERE/${name}_hand.c" -o "$hand"; } &&
         $CC $CFLAGS -fopenmp -I"$HERE" -I"$srcdir" -c "$HERE/${name}_main.c" -o "$B/${name}_main.o" &&
         $CC -fopenmp "$B/${name}_main.o" "$B/${name}_seq.o" "$B/${name}_grad.o" $hand \
             -lm -o "$B/${name}_bench"; } >>"$log" 2>&1; then
    fail_row "$name" "FAILED: build (see below)"; sed 's/^/    /' "$log"; continue
  fi
  # 3. check + time; the driver prints its row, warnings are collected
  "$B/${name}_bench" "$N" "$REPS" 2>"$B/$name.warn"
  rc=$?
  if [ $rc -eq 3 ]; then
    [ $STATUS -eq 0 ] && STATUS=3
  elif [ $rc -ne 0 ]; then
    fail_row "$name" "FAILED: driver exited with status $rc"
  fi
  [ -s "$B/$name.warn" ] && WARNFILES="$WARNFILES $B/$name.warn"
done

if [ -n "$WARNFILES" ]; then
  echo
  echo "WARNING: the checks below failed; the timings of those rows may be of wrong code."
  cat $WARNFILES
fi
exit $STATUS
