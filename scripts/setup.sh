#!/usr/bin/env bash
# scripts/setup.sh: installs what a fresh Debian 12 machine lacks, then configures and builds.
#   scripts/setup.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v cc >/dev/null || need+=(gcc)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v npm >/dev/null || need+=(npm)
command -v python3 >/dev/null || need+=(python3)
pkg-config --exists tree-sitter 2>/dev/null || need+=(libtree-sitter-dev)
[ -f /usr/include/uthash.h ] || need+=(uthash-dev)
[ -f /usr/include/cmocka.h ] || need+=(libcmocka-dev)
command -v man >/dev/null || need+=(man-db)       # tests/run-man.sh
command -v col >/dev/null || need+=(bsdextrautils)
command -v mpicc >/dev/null || need+=(libopenmpi-dev)   # MPI programs (language.md §10)
command -v mpirun >/dev/null || need+=(openmpi-bin)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

cmake -S . -B "$build" "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
