#!/usr/bin/env bash
# tests/run-writesafety.sh ADSOAC: adsoac reads and writes files like a compiler (issue 16).
# Inputs and headers that are not regular files, or too big, are refused without reading
# them; CR and CR LF line ends are read as LF, a UTF-8 byte-order mark is dropped.  Outputs
# are never the input, go through temporary files created exclusively (none left behind),
# through symlinks to their targets, in place to devices and fifos, and keep their modes.
# -MD writes file names as make reads them, and the code and its dependency file are written
# together or not at all.  (Cases whose message is worth pinning down are golden tests in
# tests/diag.)
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
# ad NAME [ARGS...]: runs adsoac (at most T seconds, 60 by default: a blocked read or write
# fails instead of hanging), stderr in NAME.err, the exit status in $rc
ad() {
  local name=$1
  shift
  timeout "${T:-60}" "$adsoac" "$@" 2>"$name.err"
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
T=5 ad zero --target=c /dev/zero -o zero_out.c # an adsoac that reads it fills memory
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

no_tmp() { test -z "$(ls -a "${1:-.}" | grep '\.tmp')"; } # no temporary file in a directory
"$adsoac" --target=c --no-line k.c -o ref.c # the output every case below expects
size=$(wc -c <ref.c)

# a symlink planted under the old predictable name OUT.tmp<size % 9973> must not be followed
echo victim >victim
ln -s victim "out.c.tmp$((size % 9973))"
ad plant --target=c --no-line k.c -o out.c
check "a symlink planted at a temporary name is not followed" test "$(cat victim)" = victim
check "  ... and the output is written" cmp -s ref.c out.c
rm -f out.c.tmp* out.c

# failures leave no temporary file, and an existing output as it was
echo untouched >out.c
printf '#pragma adsoac grad\ndouble f(double x) {\n  goto e;\ne:\n  return x;\n}\n' >bad.c
ad bad --target=c bad.c -o out.c
check "a failed translation leaves no temporary file" test $rc = 1 -a "$(cat out.c)" = untouched
check "  ..." no_tmp
(trap '' XFSZ; ulimit -f 1; "$adsoac" --target=c --no-line k.c -o out.c 2>xfsz.err)
check "a failed write (file size limit: EFBIG) is an error" says xfsz "cannot write 'out.c': File too large"
check "  ... that leaves no temporary file and the old output" test "$(cat out.c)" = untouched
check "  ..." no_tmp
# the same limit with SIGXFSZ not ignored kills adsoac in the middle of writing: the signal
# handler (the same for SIGINT, SIGTERM, SIGHUP, SIGPIPE) removes the temporary file
bash -c 'ulimit -f 1; "$0" --target=c --no-line k.c -o out.c; echo $? >rc' "$adsoac" 2>/dev/null
rc=$(cat rc)
check "a fatal signal while writing kills adsoac (status $rc)" test $rc -gt 128
check "  ... after removing the temporary file" no_tmp
check "  ... and leaves the old output" test "$(cat out.c)" = untouched
mkdir outdir
ad isdir --target=c --no-line k.c -o outdir
check "-o naming a directory is an error" says isdir "cannot write 'outdir': Is a directory"
ad nodir --target=c --no-line k.c -o no/such/dir/out.c
check "-o in a directory that does not exist is an error" test $rc = 1 -a ! -e no

# -o naming a symlink writes its target, as cc does; the link stays a link
mkdir -p real sub
echo old >real/target.c
ln -s ../real/target.c sub/link.c
ad link --target=c --no-line k.c -o sub/link.c
check "-o a symlink (relative, in another directory) writes its target" cmp -s ref.c real/target.c
check "  ... and the link stays a link" test -L sub/link.c
check "  ... and no temporary file is left" no_tmp sub
ln -s real/dangling.c dangling.c
ad dangling --target=c --no-line k.c -o dangling.c
check "-o a dangling symlink creates its target" cmp -s ref.c real/dangling.c
check "  ... and the link stays a link" test -L dangling.c

# devices and fifos are written in place, never renamed over
# An adsoac that renames over its output would replace /dev/null itself when run as root:
# a private null device (root can make one) is tried first, and /dev/null only if that
# stayed a device.  Without root, /dev/null cannot be renamed over.
dev_ok=true
if mknod nul c 1 3 2>/dev/null && echo probe 2>/dev/null >nul; then
  ad nul --target=c --no-line k.c -o nul
  check "-o a device (a private null device) succeeds" test $rc = 0
  test -c nul || dev_ok=false
  check "  ... and it is still a character device" $dev_ok
fi
if $dev_ok; then
  ad null --target=c --no-line k.c -o /dev/null
  check "-o /dev/null succeeds" test $rc = 0
  check "  ... and /dev/null is still a character device" test -c /dev/null
else
  check "-o /dev/null (not tried: it would have been replaced)" false
fi
mkfifo out.fifo
timeout 60 cat out.fifo >got.c &
reader=$!
ad fifo --target=c --no-line k.c -o out.fifo
if [ -p out.fifo ]; then wait $reader; else kill $reader; fi
check "-o a fifo writes the output into it" cmp -s ref.c got.c
check "  ... and it is still a fifo" test -p out.fifo

# permissions: an existing output keeps its mode, a new one gets 0666 & ~umask
echo old >mode.c
chmod 0640 mode.c
(umask 022; "$adsoac" --target=c --no-line k.c -o mode.c)
check "an existing output's mode 0640 is kept" test "$(stat -c %a mode.c)" = 640
chmod 0755 mode.c
(umask 077; "$adsoac" --target=c --no-line k.c -o mode.c)
check "an existing output's mode 0755 is kept" test "$(stat -c %a mode.c)" = 755
(umask 027; "$adsoac" --target=c --no-line k.c -o new.c)
check "a new output is 0666 & ~umask (0640 for umask 027)" test "$(stat -c %a new.c)" = 640
(umask 0; "$adsoac" --target=c --no-line k.c -o new0.c)
check "a new output is 0666 & ~umask (0666 for umask 0)" test "$(stat -c %a new0.c)" = 666

# ---- -MD: make syntax, and the code and the dependency file written together or not at all
mkdir 'a b#c$d'
echo '#define K 2.0' >'a b#c$d/h.h'
{ echo '#include "h.h"'; sed 's/x\[i\] \* x\[i\]/K * x[i]/' k.c; } >kh.c
ad esc --target=c --no-line -I 'a b#c$d' kh.c -o 'o p.c' -MD -MF kh.d
expected='o\ p.c: kh.c \
  a\ b\#c$$d/h.h

a\ b\#c$$d/h.h:'
check "-MD escapes ' ', '#' and '\$' as gcc does" test "$(cat kh.d)" = "$expected"
sed 's/^o\\ p\.c:/o.c:/' kh.d >o.d # make reads it: o.c depends on the header
printf 'include o.d\no.c:\n\t@:\n' >probe.mk
touch -d '-2 hours' kh.c 'a b#c$d/h.h'
touch o.c
make -q -f probe.mk o.c 2>make.err
check "  ... make reads it: the target is up to date" test $? = 0
touch -d '-1 hour' o.c
touch 'a b#c$d/h.h'
make -q -f probe.mk o.c 2>make.err
check "  ... and out of date once the header changes" test $? = 1
echo untouched >out.c
echo untouched >out.d
ad mfbad --target=c --no-line k.c -o out.c -MD -MF /nonexistent/x.d
check "-MF in a directory that does not exist is an error" test $rc = 1
check "  ... and the output is left as it was" test "$(cat out.c)" = untouched
check "  ... and no temporary file is left" no_tmp
ad obad --target=c --no-line k.c -o no/such/out.c -MD -MF out.d
check "an output that cannot be written leaves the dependency file as it was" \
  test $rc = 1 -a "$(cat out.d)" = untouched
bash -c 'ulimit -f 1; "$0" --target=c --no-line k.c -o out.c -MD; echo $? >rc' "$adsoac" 2>/dev/null
check "a fatal signal while writing with -MD leaves neither temporary file" test "$(cat rc)" -gt 128
check "  ..." no_tmp
check "  ... and both old files" test "$(cat out.c)$(cat out.d)" = untoucheduntouched
ad mdstdout --emit=ir k.c -MD >mdstdout.out
check "-MD with the output on stdout is a usage error" test $rc = 2
check "  ... before anything is printed" test ! -s mdstdout.out
ad mfout --target=c k.c -o out.c -MD -MF out.c
check "-MF naming the output is a usage error" test $rc = 2 -a "$(cat out.c)" = untouched
ad mfin --target=c k.c -o out.c -MD -MF k.c
check "-MF naming the input is a usage error" test $rc = 2 -a "$(cat out.c)" = untouched
check "  ... and the input is intact" cmp -s k.c keep.c

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
