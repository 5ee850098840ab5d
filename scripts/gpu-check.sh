#!/usr/bin/env bash
# The project's check of its speed figures on a real GPU, in three steps:
#
#   scripts/gpu-check.sh prepare [DIR]   here (the compiler, no GPU): compile
#       the sm_90 examples and a sweep of the sm_90 matmul's 24 nearest
#       candidates (their resources read, each predicted), and write them as
#       one run bundle, DIR/bundle (DIR: build-gpu-check)
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
  "$CLI" sweep "$MATMUL" --compile-only --nearest 24 --name "$SWEEP" \
    --workspace "$WORKSPACE" | tail -n 30
  "$CLI" bundle "${tries[@]}" --sweep "$SWEEP" -o "$DIR/bundle" \
    --workspace "$WORKSPACE"
  du -sh "$DIR/bundle"
  echo "next, on the GPU machine: TILESCOPE_PROFILE=on $DIR/bundle/run.sh"
  ;;
report)
  [ -d "$DIR/bundle/results" ] || { echo "gpu-check: no $DIR/bundle/results: run the bundle first" >&2; exit 2; }
  status=0
  "$CLI" import-results "$DIR/bundle" --workspace "$WORKSPACE" || status=$?
  echo
  echo "the sweep, ranked by what the GPU measured:"
  "$CLI" sweep "$MATMUL" --compile-only --nearest 24 --name "$SWEEP" \
    --workspace "$WORKSPACE" | tail -n 30
  exit $status
  ;;
*)
  sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
