#!/usr/bin/env bash
# scripts/test.sh: the whole test suite on a fresh machine: install what is missing, build
# adsoac under AddressSanitizer and UndefinedBehaviorSanitizer, run every test with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-test}
scripts/setup.sh "$build" -DADSOAC_TESTMODE=ON -DBUILD_TESTING=ON
cd "$build"
ctest --output-on-failure -j2 --timeout 3600
