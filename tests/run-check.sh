#!/usr/bin/env bash
# tests/run-check.sh ADSOAC: adsoac --emit=check (README "Validating a translation"): the
# validation program of each program below compiles with -Wall -Wextra -Werror, and passes
# at the sizes given; a translation made wrong on purpose (one adjoint update halved) fails,
# a missing array length is a usage error (2), a struct parameter is refused.
set -u
adsoac=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cc=(cc -std=c11 -O2 -fopenmp -Wall -Wextra -Werror -Wno-unused-parameter)
# NAME SOURCE EXTRA-C-FILES -- ARGS...
check() {
  local name=$1 src=$2 extra=$3
  shift 4
  if ! "$adsoac" --emit=check "$src" -o "$tmp/$name.c" 2>"$tmp/$name.err"; then
    echo "[FAIL] $name: adsoac --emit=check failed"; cat "$tmp/$name.err"; fail=1; return
  fi
  # shellcheck disable=SC2086 # EXTRA is words
  if ! "${cc[@]}" -I "$(dirname "$src")" "$tmp/$name.c" $extra -lm -o "$tmp/$name" 2>"$tmp/$name.cc"; then
    echo "[FAIL] $name: the validation program does not compile"; head -20 "$tmp/$name.cc"; fail=1; return
  fi
  if "$tmp/$name" "$@" >"$tmp/$name.out" 2>&1 && grep -q "all passed" "$tmp/$name.out"; then
    echo "[PASS] $name ($(grep -c PASS "$tmp/$name.out") checks)"
  else
    echo "[FAIL] $name"; cat "$tmp/$name.out"; fail=1
  fi
}
E=$root/examples/legacy
check stencil "$E/stencil/stencil.c" "" -- nx=13 ny=9 steps=4 u=nx*ny:0:1 kappa=nx*ny:0.05:0.2 unew=nx*ny
check lstm "$E/lstm/lstm.c" "" -- l=2 c=4 b=3 main_params=8*l*b:-0.5:0.5 extra_params=3*b:-0.5:0.5 \
  state=2*l*b:-0.5:0.5 sequence=c*b loss=1
check ba "$E/ba/ba.c" "" -- n=3 m=7 p=12 cams=11*n:-0.5:0.5 X=3*m w=p:0.5:1.5 'obs=2*p@(1-i%2)*((i/2)%n)+(i%2)*((i/2*7+1)%m)' \
  feats=2*p reproj_err=2*p w_err=p
check csr "$E/csr/csr.c" "" -- nrows=11 ncols=7 'rowptr=nrows+1@2*i' 'colidx=2*nrows@(i*5+1)%ncols' \
  vals=2*nrows x=ncols b=nrows y=nrows
check ext_deriv "$root/tests/e2e/ext_deriv.c" "$root/tests/e2e/lib/ext_lib.c" -- n=9 \
  ext_loss.x=n ext_loss.y=n beta=0.5:2 steps=3 u=n w=n ext_float.x=n ext_float.y=n
check scan_sum "$root/tests/e2e/scan_sum.c" "" -- n=17 x=n w=n y=n
# examples/openmp: kernels that are already OpenMP, only `#pragma adsoac grad` added
O=$root/examples/openmp
check omp_logistic "$O/logistic/logistic.c" "" -- n=23 d=5 X=n*d y=n:0:2 w=d lambda=0.1:0.5
check omp_softmax "$O/softmax/softmax.c" "" -- n=13 z=n:-2:2 label=4 p=n
check omp_deposit "$O/deposit/deposit.c" "" -- np=40 x=np:0:3 q=np:0.5:1.5 rho=64
check omp_prefix "$O/prefix/prefix.c" "" -- n=19 r=n logp=n:-0.5:0 cum=n before=n
check omp_partial "$O/partial/partial.c" "" -- n=21 v=n wt=n:0.5:1.5 out=2
check omp_cgstep "$O/cgstep/cgstep.c" "" -- n=12 'row=n+1@3*i' 'col=3*n@(i/3+i%3)%n' \
  a=3*n:0.5:1.5 p=n q=n r=n z=n dots=3:1:2
# wrong on purpose: the first plain adjoint update of the stencil's f_vjp halved (in both
# copies of its loop: with a team and without, which the small sizes here run)
"$adsoac" --emit=check "$E/stencil/stencil.c" -o "$tmp/bad.c" 2>/dev/null
line=$(grep -n "_bar\[[^]]*\] += " "$tmp/bad.c" | head -1 | cut -d: -f1)
text=$(sed -n "${line}p" "$tmp/bad.c" | sed 's/^ *//')
awk -v t="$text" '{ s = $0; sub(/^ */, "", s); if (s == t) sub(/ \+= /, " += 0.5 * "); print }' \
  "$tmp/bad.c" >"$tmp/bad2.c" && mv "$tmp/bad2.c" "$tmp/bad.c"
[ "$(grep -c "+= 0.5 \*" "$tmp/bad.c")" -ge 1 ] || { echo "[FAIL] the wrong translation was not made"; fail=1; }
"${cc[@]}" "$tmp/bad.c" -lm -o "$tmp/bad"
"$tmp/bad" nx=13 ny=9 steps=4 u=nx*ny:0:1 kappa=nx*ny:0.05:0.2 unew=nx*ny >"$tmp/bad.out"
rc=$?
if [ $rc -eq 1 ] && grep -q "FAIL vjp" "$tmp/bad.out"; then
  echo "[PASS] a wrong translation fails"
else
  echo "[FAIL] a wrong translation (line $line halved) passed the check (exit $rc)"; cat "$tmp/bad.out"; fail=1
fi
"$tmp/stencil" nx=13 ny=9 steps=4 >"$tmp/usage.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "give the length of u" "$tmp/usage.out"; then
  echo "[PASS] a missing length is a usage error"
else
  echo "[FAIL] a missing length: exit $rc"; cat "$tmp/usage.out"; fail=1
fi
# a parameter named like an option (h, the step): FUNCTION.h=5 is its length, never the step
# (which took 5 for a difference step once, and every adjoint failed)
mkdir -p "$tmp/src"
cat >"$tmp/src/named_h.c" <<'C'
#pragma adsoac grad
double named_h(int n, const double *x, const double *h) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += x[i] * x[i] * h[i % 5];
  return s;
}
C
check named_h "$tmp/src/named_h.c" "" -- n=7 x=n named_h.h=5 seed=3
if "$adsoac" --emit=check "$E/gmm/gmm.c" -o "$tmp/gmm.c" 2>"$tmp/gmm.err" || ! grep -q "takes a struct" "$tmp/gmm.err" ||
   [ -e "$tmp/gmm.c" ]; then
  echo "[FAIL] a struct parameter is not refused"; cat "$tmp/gmm.err"; fail=1
else
  echo "[PASS] a struct parameter is refused"
fi
# an MPI program is validated under mpirun (tests/e2e/mpi_*.c), not by one process
root=$(cd "$(dirname "$0")/.." && pwd)
if "$adsoac" --emit=check "$root/tests/e2e/mpi_allreduce.c" -o "$tmp/mpi.c" 2>"$tmp/mpi.err" ||
   ! grep -q "calls MPI is not validated" "$tmp/mpi.err" || [ -e "$tmp/mpi.c" ]; then
  echo "[FAIL] an MPI program is not refused"; cat "$tmp/mpi.err"; fail=1
else
  echo "[PASS] an MPI program is refused"
fi
exit $fail
