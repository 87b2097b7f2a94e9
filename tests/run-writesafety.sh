#!/usr/bin/env bash
# tests/run-writesafety.sh ADSOAC: adsoac reads and writes files like a compiler (issue 16).
# Inputs and headers that are not regular files, or too big, are refused without reading
# them; CR and CR LF line ends are read as LF, a UTF-8 byte-order mark is dropped.  (Cases whose message is worth pinning down are golden tests in tests/diag.)
set -u
adsoac=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
pass=0 fail=0
check() { # name condition...: PASS when the condition (a command) succeeds
  local name=$1
  shift
  if "$@"; then echo "PASS $name"; pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}
# ad NAME [ARGS...]: runs adsoac (at most 60 s: a blocked read or write fails instead of
# hanging), stderr in NAME.err, the exit status in $rc
ad() {
  local name=$1
  shift
  timeout 60 "$adsoac" "$@" 2>"$name.err"
  rc=$?
}
says() { grep -qF -- "$2" "$1.err" || { sed 's/^/    /' "$1.err"; false; }; }

cat >k.c <<'EOF'
#pragma adsoac grad
double f(int n, const double *x) {
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}
EOF

# ---- inputs ----
mkdir dir.c
ad dir --target=c dir.c -o dir_out.c
check "a directory as input is refused" \
  test $rc = 1 -a ! -e dir_out.c -a "$(cat dir.err)" = "adsoac: error: cannot read 'dir.c': Is a directory"
ad zero --target=c /dev/zero -o zero_out.c
check "/dev/zero as input is refused, not read" test $rc = 1 -a ! -e zero_out.c
check "  ... as not a regular file" says zero "adsoac: error: cannot read '/dev/zero': not a regular file"
mkfifo fifo.c
ad fifoin --target=c fifo.c -o fifo_out.c
check "a fifo as input is refused without blocking" test $rc = 1 -a ! -e fifo_out.c
truncate -s 65M big.c
ad big --target=c big.c -o big_out.c
check "an input over 64 MiB is refused" says big "adsoac: error: cannot read 'big.c': larger than 64 MiB"
truncate -s 65M big.h
{ echo '#include "big.h"'; cat k.c; } >inc_big.c
ad incbig --target=c inc_big.c -o inc_big_out.c
check "a header over 64 MiB is an error at its #include" \
  says incbig 'inc_big.c:1:1: error: cannot read "big.h": larger than 64 MiB'
mkdir -p sub/hdr.h inc
echo '#define K 2.0' >inc/hdr.h
{ echo '#include "hdr.h"'; sed 's/x\[i\] \* x\[i\]/K * x[i]/' k.c; } >sub/dirhdr.c
ad dirhdr --target=c -I inc sub/dirhdr.c -o dirhdr_out.c
check "a directory named like the header is passed over, as gcc does" test $rc = 0 -a -s dirhdr_out.c

# ---- line ends and the byte-order mark (their diagnostics: diag/cr_only, crlf, bom) ----
mkdir lf cr crlf bom
cp k.c lf/k.c
tr '\n' '\r' <k.c >cr/k.c
sed 's/$/\r/' k.c >crlf/k.c
{ printf '\357\273\277'; cat k.c; } >bom/k.c
for d in lf cr crlf bom; do (cd $d && timeout 60 "$adsoac" --target=c k.c -o out.c 2>err); done
check "CR-only line ends translate as LF ones do" cmp -s lf/out.c cr/out.c
check "CR LF line ends translate as LF ones do" cmp -s lf/out.c crlf/out.c
check "a byte-order mark is dropped, not copied into the output" cmp -s lf/out.c bom/out.c

# ---- outputs ----
# -o naming the input, however spelled (a symlink, a hard link): a usage error, nothing written
cp k.c keep.c
ln -s k.c k_link.c
ln k.c k_hard.c
for o in k.c ./k.c "$tmp/k.c" k_link.c k_hard.c; do
  ad self --target=c k.c -o "$o"
  check "-o $o (the input) is refused" test $rc = 2
  check "  ... and the input is intact" cmp -s k.c keep.c
done
check "  ... and no temporary file is left" test -z "$(ls | grep '\.tmp')"
check "  ... and the link is still a link" test -L k_link.c

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
