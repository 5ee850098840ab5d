#!/usr/bin/env bash
# The project's check of its speed figures on a real GPU, in three steps:
#
#   scripts/gpu-check.sh prepare [DIR]   here (the compiler, no GPU): compile
#       the sm_90 examples, a sweep of the 4096^3 f16 matmul's 16 nearest
#       candidates with IREE's config (kernels of 0.7-1.6 ms, where the
#       per-dispatch time must match the profiler within 3 %) and one of the
#       1024^3 matmul's 24 (the measured set in ../shared/gpu-data/), their
#       resources read and each predicted, and write them as one run bundle,
#       DIR/bundle (DIR: build-gpu-check), in that order, so that a run cut
#       short keeps the examples and the large kernels (about 4 minutes on
#       an H200 with Nsight Compute)
#   DIR/bundle/run.sh                    there (the GPU, no compiler): times
#       every module per dispatch and one per submission, and profiles each
#       with Nsight Compute (or rocprofv3)
#   scripts/gpu-check.sh report [DIR]    here again, with DIR/bundle/results
#       back: imports the results into DIR's own history and prints, per
#       kernel, the per-dispatch time against the profiler's (a "!" past 3 %),
#       the resources Tilescope read against the driver's, and the cost
#       model's order against the measured one (rank correlation, and the
#       predicted first against the fastest)
#
# BUILD_DIR (default build/) holds tilescope-cli; the set-up command builds it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
CLI="$BUILD_DIR/app/tilescope-cli"
step="${1:-}"
DIR="$(realpath -m "${2:-$ROOT/build-gpu-check}")"
WORKSPACE="$DIR/workspace"
SWEEP="gpu-check sm_90 matmul nearest 24"
MATMUL="$ROOT/examples/cuda_sm_90/matmul_f16_1024_dispatch_0.benchmark.mlir"
SWEEP_4096="gpu-check sm_90 matmul 4096 nearest 16"
MATMUL_4096="$DIR/matmul_f16_4096_dispatch_0.benchmark.mlir"
IREE_COMPILE="$ROOT/.deps/iree-3.13.0/iree/compiler/_mlir_libs/iree-compile"

# The 4096^3 matmul's dispatch benchmark, as examples/generate.sh makes the
# 1024^3 one: its source scaled, compiled for the H100 target by the pinned
# iree-compile, IREE's own config in it.
make_matmul_4096() {
  local work="$DIR/matmul_4096"
  mkdir -p "$work"
  { printf 'module attributes {hal.device.targets = [%s]} {\n' \
      "$(cat "$ROOT/examples/targets/cuda_sm_90.device.mlir")"
    sed 's/1024/4096/g' "$ROOT/examples/sources/matmul_f16_1024.mlir"
    printf '}\n'; } >"$work/source.mlir"
  "$IREE_COMPILE" "$work/source.mlir" --iree-codegen-add-tuner-attributes \
    --iree-hal-dump-executable-benchmarks-to="$work" -o "$work/program.vmfb"
  cp "$work"/*_benchmark.mlir "$MATMUL_4096"
}

[ -x "$CLI" ] || { echo "gpu-check: no $CLI (run scripts/tilescope.sh build)" >&2; exit 2; }

case "$step" in
prepare)
  rm -rf "$DIR"
  mkdir -p "$WORKSPACE"
  tries=()
  for example in "$ROOT"/examples/cuda_sm_90/*.benchmark.mlir; do
    id=$("$CLI" resources "$example" --workspace "$WORKSPACE" --json |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["try"])')
    echo "compiled $(basename "$example") as try $id"
    tries+=(--try "$id")
  done
  make_matmul_4096
  id=$("$CLI" resources "$MATMUL_4096" --workspace "$WORKSPACE" --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["try"])')
  echo "compiled the 4096^3 matmul (IREE's config) as try $id"
  tries+=(--try "$id")
  "$CLI" sweep "$MATMUL_4096" --compile-only --nearest 16 --name "$SWEEP_4096" \
    --workspace "$WORKSPACE" | tail -n 22
  "$CLI" sweep "$MATMUL" --compile-only --nearest 24 --name "$SWEEP" \
    --workspace "$WORKSPACE" | tail -n 30
  "$CLI" bundle "${tries[@]}" --sweep "$SWEEP_4096" --sweep "$SWEEP" -o "$DIR/bundle" \
    --workspace "$WORKSPACE"
  du -sh "$DIR/bundle"
  echo "next, on the GPU machine: TILESCOPE_PROFILE=on $DIR/bundle/run.sh"
  ;;
report)
  [ -d "$DIR/bundle/results" ] || { echo "gpu-check: no $DIR/bundle/results: run the bundle first" >&2; exit 2; }
  status=0
  "$CLI" import-results "$DIR/bundle" --workspace "$WORKSPACE" || status=$?
  echo
  echo "the sweeps, ranked by what the GPU measured:"
  "$CLI" sweep "$MATMUL_4096" --compile-only --nearest 16 --name "$SWEEP_4096" \
    --workspace "$WORKSPACE" | tail -n 22
  "$CLI" sweep "$MATMUL" --compile-only --nearest 24 --name "$SWEEP" \
    --workspace "$WORKSPACE" | tail -n 30
  exit $status
  ;;
*)
  sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
