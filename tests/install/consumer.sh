#!/usr/bin/env bash
# The installed library, as a program outside the tree uses it: install the
# build into a fresh prefix, build examples/consumer against it with
# find_package(Tilescope), and run it on the sm_90 matmul example. Fails if
# any step does, or if the consumer's answer is not the one expected.
#
#   tests/install/consumer.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1
build_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >"$work/install.log"
for file in lib/cmake/Tilescope/TilescopeConfig.cmake \
            include/tilescope/core/iree/DocumentParser.h bin/tilescope-cli; do
  [ -e "$work/prefix/$file" ] || { echo "not installed: $file" >&2; exit 1; }
done
if [ -e "$work/prefix/include/tilescope/core/iree/detail/CApi.h" ]; then
  echo "IREE's C API declarations were installed; they are private" >&2
  exit 1
fi
cmake -S "$source_dir/examples/consumer" -B "$work/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" ||
  { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" >"$work/build.log" || { cat "$work/build.log" >&2; exit 1; }
out=$("$work/build/tilescope-consumer" \
  "$source_dir/examples/cuda_sm_90/matmul_f16_1024_dispatch_0.benchmark.mlir")
echo "$out"
grep -q "^1 dispatch(es)" <<<"$out"
grep -q "matmul_f16_1024_dispatch_0.*linalg.*1024x1024x1024" <<<"$out"
grep -q "us predicted, bound by" <<<"$out"
echo "the installed package built and ran the consumer"
