#!/usr/bin/env bash
# tests/run-header.sh ADSOAC [NVCC]: --emit=header as callers use it.  For each program below
# (struct parameters by value and by pointer, struct returns, arrays of arrays, float and
# integer types, several marked functions, a static one):
#   - the header agrees with the output: the output compiles with the header included after
#     it (ADSOAC_USER_TYPES: the output has the input's own types), so every prototype
#     matches its definition (C: compatible declarations, -Warray-parameter; C++: one extern
#     "C" declaration per name);
#   - a C program that includes only the header takes the address of every function it
#     declares (typed from the header), compiles with -std=c11 -Wall -Wextra -Werror, links
#     against the C output's object and runs;
#   - the header compiles as C++ (g++ -fsyntax-only -Wall -Werror) where it has no
#     variable-length array parameters (C's, which the C target's header keeps);
#   - with NVCC, the same for the CUDA output: the header included first into the .cu
#     (nvcc -c), the C caller (cc) linked against that object (nvcc links; not run: no GPU
#     needed).
set -euo pipefail
adsoac=$(realpath "$1")
nvcc=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
programs=(structs_param gmm_legacy struct_reduce ba_legacy md_linalg md_helpers header_fns
          dot_f math_f scan_struct structs saxpy_inout)
cuda_programs=(structs_param gmm_legacy md_linalg)
fail=0
caller() { # HEADER OUT: a C program that takes the address of every function HEADER declares
  python3 - "$1" "$2" <<'PY'
import re, sys
hdr, out = sys.argv[1], sys.argv[2]
names = []
for line in open(hdr):
    m = re.match(r'^[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\(.*\);$', line.strip())
    if m and not line.startswith(('#', '//')):
        names.append(m.group(1))
with open(out, 'w') as f:
    f.write('#include "%s"\n#include <stdio.h>\n\nint main(void) {\n  int n = 0;\n' % hdr)
    for k in names:
        f.write('  {\n    __typeof__(%s) *p = %s;\n    n += p != 0;\n  }\n' % (k, k))
    f.write('  printf("%%d of %d functions\\n", n);\n  return n == %d ? 0 : 1;\n}\n' % (len(names), len(names)))
print(len(names))
PY
}
source_of() { # the annotated file of e2e program P (its "// e2e: source" line, or itself)
  local s
  s=$(sed -n 's|^// e2e: source ||p' "$here/e2e/$1.c")
  echo "$here/e2e/${s:-$1.c}"
}
for p in "${programs[@]}"; do
  src=$(source_of "$p") d=$tmp/$p
  mkdir -p "$d"
  if ! { "$adsoac" --target=c --emit=header "$src" -o "$d/grad.h" 2>/dev/null &&
         "$adsoac" --target=c "$src" -o "$d/grad.c" 2>/dev/null; }; then
    echo "FAIL $p: translation"; fail=1; continue
  fi
  nf=$(caller "$d/grad.h" "$d/caller.c")
  printf '#include "grad.c"\n#define ADSOAC_USER_TYPES\n#include "grad.h"\n' >"$d/both.c"
  if ! { cc -std=c11 -O1 -fopenmp -Wall -Werror -I"$(dirname "$src")" -I"$here/e2e" -c "$d/both.c" \
           -o "$d/both.o" && cc -std=c11 -O1 -fopenmp -I"$(dirname "$src")" -c "$d/grad.c" -o "$d/grad.o"; } 2>"$d/err"; then
    echo "FAIL $p: the C output with the header included after it"; head -5 "$d/err"; fail=1; continue
  fi
  if ! { cc -std=c11 -Wall -Wextra -Werror -c "$d/caller.c" -o "$d/caller.o" &&
         cc -fopenmp "$d/caller.o" "$d/grad.o" -lm -o "$d/caller" && "$d/caller" >"$d/out"; } 2>"$d/err"; then
    echo "FAIL $p: a C caller of the header"; head -5 "$d/err"; fail=1; continue
  fi
  if ! grep -q "\[[a-z_]" "$d/grad.h" && ! g++ -x c++ -fsyntax-only -Wall -Werror "$d/grad.h" 2>"$d/err"; then
    echo "FAIL $p: the header as C++"; head -5 "$d/err"; fail=1; continue
  fi
  echo "PASS $p: $nf functions declared, compiled against the C output, called from C"
done
if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then
  for p in "${cuda_programs[@]}"; do
    src=$(source_of "$p") d=$tmp/cuda-$p
    mkdir -p "$d"
    "$adsoac" --emit=header "$src" -o "$d/grad.h" 2>/dev/null && "$adsoac" "$src" -o "$d/grad.cu" 2>/dev/null ||
      { echo "FAIL $p (cuda): translation"; fail=1; continue; }
    nf=$(caller "$d/grad.h" "$d/caller.c")
    printf '#include "grad.cu"\n#define ADSOAC_USER_TYPES\n#include "grad.h"\n' >"$d/both.cu"
    if ! "$nvcc" -O1 -arch=sm_90 -I"$(dirname "$src")" -I"$here/e2e" -c "$d/both.cu" -o "$d/grad.o" 2>"$d/err"; then
      echo "FAIL $p (cuda): the .cu with the header included after it"; head -5 "$d/err"; fail=1; continue
    fi
    if ! { cc -std=c11 -Wall -Wextra -Werror -c "$d/caller.c" -o "$d/caller.o" &&
           "$nvcc" -arch=sm_90 "$d/caller.o" "$d/grad.o" -o "$d/caller"; } 2>"$d/err"; then
      echo "FAIL $p (cuda): a C caller linked against the nvcc object"; head -5 "$d/err"; fail=1; continue
    fi
    if ! g++ -x c++ -fsyntax-only -Wall -Werror "$d/grad.h" 2>"$d/err"; then
      echo "FAIL $p (cuda): the header as C++"; head -5 "$d/err"; fail=1; continue
    fi
    echo "PASS $p (cuda): $nf functions declared, compiled into the .cu, a C caller linked"
  done
fi
exit $fail
