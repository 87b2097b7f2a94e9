#!/usr/bin/env bash
# tests/run-consumer.sh BUILD_DIR [NVCC]: installs the adsoac of BUILD_DIR into a temporary
# prefix (cmake --install), then builds tests/consumer, a project outside this tree, with
# find_package(adsoac) and adsoac_add_gradient: the C-target gradient is built, run and
# checked; with NVCC the CUDA-target output is compiled too.  Then the depfile: touching the
# annotated source or a header it includes re-runs adsoac, touching an unrelated source or
# nothing does not.  With the Makefile generator, and Ninja where installed.
set -euo pipefail
build=$(realpath "$1")
nvcc=${2:-}
src=$(cd "$(dirname "$0")/consumer" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/adsoac include/adsoac.h share/man/man1/adsoac.1 lib/cmake/adsoac/adsoacConfig.cmake \
         lib/cmake/adsoac/AdsoacGradient.cmake share/pkgconfig/adsoac.pc; do
  [ -e "$tmp/prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
# pkg-config finds the header and the translator from the installed .pc
PKG_CONFIG_PATH="$tmp/prefix/share/pkgconfig" pkg-config --cflags adsoac | grep -q -- "-I" 
pc_adsoac=$(PKG_CONFIG_PATH="$tmp/prefix/share/pkgconfig" pkg-config --variable=adsoac adsoac)
"$pc_adsoac" --version >/dev/null

cp -r "$src" "$tmp/src"
gens=("Unix Makefiles")
command -v ninja >/dev/null && gens+=(Ninja)
for gen in "${gens[@]}"; do
  b="$tmp/build-${gen// /_}"
  args=(-DCMAKE_PREFIX_PATH="$tmp/prefix")
  if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then args+=(-DWITH_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc"); fi
  cmake -S "$tmp/src" -B "$b" -G "$gen" "${args[@]}" >"$tmp/configure.log" || { cat "$tmp/configure.log"; exit 1; }
  cmake --build "$b" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
  grep -q 'adsoac energy.c' "$tmp/build.log" || { echo "[$gen] adsoac did not run" >&2; exit 1; }
  "$b/energy_check"
  if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then
    ls "$b"/adsoac/energy_cuda/energy_grad.cu >/dev/null
    echo "[$gen] CUDA output translated and compiled"
  fi
  # rebuild after: nothing, an unrelated source, the header, the annotated source
  for touch in none other.c include/energy.h energy.c; do
    sleep 1
    [ "$touch" = none ] || touch "$tmp/src/$touch"
    cmake --build "$b" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
    ran=no
    grep -q 'adsoac energy.c' "$tmp/build.log" && ran=yes
    want=no
    case $touch in include/energy.h|energy.c) want=yes ;; esac
    if [ "$ran" != "$want" ]; then
      echo "[$gen] after touching $touch: adsoac ran: $ran, expected: $want" >&2
      cat "$tmp/build.log" >&2
      exit 1
    fi
    echo "[$gen] touched $touch: adsoac re-ran: $ran"
  done
done
echo "consumer: ok"
