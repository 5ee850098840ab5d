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
#       an H100 with Nsight Compute); then the cost model's other measured
#       sets as a second bundle, DIR/bundle-sets, timed without the profiler
#       (about 3 minutes): the seed's reduction over 24 configs and a 2048^3
#       f32 matmul on the vector units (TileAndFuse) over 32
#   DIR/bundle/run.sh, DIR/bundle-sets/run.sh
#                                        there (the GPU, no compiler): time
#       every module per dispatch and one per submission, and profile each
#       with Nsight Compute (or rocprofv3) where TILESCOPE_PROFILE says
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
# The cost model's measured sets beyond the matmuls above, timed without the
# profiler (a second bundle, bundle-sets): a VectorDistribute reduction (the
# seed's) over workgroup rows, partial-reduction and thread tiles, and a
# TileAndFuse contraction (a 2048^3 f32 matmul, no MMA) over its workgroup
# and K tiles.
REDUCTION="$ROOT/examples/cuda_sm_90/reduction_4x6656x16384_dispatch_0.benchmark.mlir"
SWEEP_REDUCTION="gpu-check sm_90 reduction grid 24"
REDUCTION_VARY=(--vary 'workgroup[0]=1,2,4' --vary 'partial_reduction[1]=256,512,1024,2048'
  --vary 'thread[1]=4,8')
MATMUL_F32="$DIR/matmul_f32_2048_dispatch_0.benchmark.mlir"
SWEEP_F32="gpu-check sm_90 tileandfuse matmul f32 2048 grid 32"
F32_VARY=(--vary 'workgroup[0]=16,32,64,128' --vary 'workgroup[1]=32,64,128,256'
  --vary 'reduction[2]=16,64')
IREE_COMPILE="$ROOT/.deps/iree-3.13.0/iree/compiler/_mlir_libs/iree-compile"

# A dispatch benchmark scaled from one of the examples' sources, as
# examples/generate.sh makes them: the source with FROM replaced by TO,
# compiled for the H100 target by the pinned iree-compile, IREE's own config
# in it. make_dispatch SOURCE FROM TO OUT
make_dispatch() {
  local work="$DIR/work-$(basename "$4" .benchmark.mlir)"
  mkdir -p "$work"
  { printf 'module attributes {hal.device.targets = [%s]} {\n' \
      "$(cat "$ROOT/examples/targets/cuda_sm_90.device.mlir")"
    sed "s/$2/$3/g" "$ROOT/examples/sources/$1.mlir"
    printf '}\n'; } >"$work/source.mlir"
  "$IREE_COMPILE" "$work/source.mlir" --iree-codegen-add-tuner-attributes \
    --iree-hal-dump-executable-benchmarks-to="$work" -o "$work/program.vmfb"
  cp "$work"/*_benchmark.mlir "$4"
}

# Compiles FILE as a resources try (IREE's config) and prints its id.
compiled_try() {
  local id
  id=$("$CLI" resources "$1" --workspace "$WORKSPACE" --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["try"])')
  echo "compiled $(basename "$1") as try $id" >&2
  echo "$id"
}

# The sweeps, compiled only; the second time (report) they come from the
# history, ranked by what the GPU measured where it did.
sweep_matmuls() {
  "$CLI" sweep "$MATMUL_4096" --compile-only --nearest 16 --name "$SWEEP_4096" \
    --workspace "$WORKSPACE" | tail -n 22
  "$CLI" sweep "$MATMUL" --compile-only --nearest 24 --name "$SWEEP" \
    --workspace "$WORKSPACE" | tail -n 30
}
sweep_sets() {
  "$CLI" sweep "$REDUCTION" --compile-only "${REDUCTION_VARY[@]}" --name "$SWEEP_REDUCTION" \
    --workspace "$WORKSPACE" | tail -n 26
  "$CLI" sweep "$MATMUL_F32" --compile-only "${F32_VARY[@]}" --name "$SWEEP_F32" \
    --workspace "$WORKSPACE" | tail -n 34
}

[ -x "$CLI" ] || { echo "gpu-check: no $CLI (run scripts/tilescope.sh build)" >&2; exit 2; }

case "$step" in
prepare)
  rm -rf "$DIR"
  mkdir -p "$WORKSPACE"
  tries=()
  for example in "$ROOT"/examples/cuda_sm_90/*.benchmark.mlir; do
    id=$(compiled_try "$example")
    tries+=(--try "$id")
  done
  make_dispatch matmul_f16_1024 1024 4096 "$MATMUL_4096"
  id=$(compiled_try "$MATMUL_4096")
  tries+=(--try "$id")
  sweep_matmuls
  "$CLI" bundle "${tries[@]}" --sweep "$SWEEP_4096" --sweep "$SWEEP" -o "$DIR/bundle" \
    --workspace "$WORKSPACE"
  make_dispatch matmul_f32_small 128 2048 "$MATMUL_F32"
  sweep_sets
  "$CLI" bundle --sweep "$SWEEP_REDUCTION" --sweep "$SWEEP_F32" -o "$DIR/bundle-sets" \
    --workspace "$WORKSPACE"
  du -sh "$DIR/bundle" "$DIR/bundle-sets"
  echo "next, on the GPU machine: TILESCOPE_PROFILE=on $DIR/bundle/run.sh;" \
    "TILESCOPE_PROFILE=off $DIR/bundle-sets/run.sh"
  ;;
report)
  [ -d "$DIR/bundle/results" ] || { echo "gpu-check: no $DIR/bundle/results: run the bundle first" >&2; exit 2; }
  status=0
  "$CLI" import-results "$DIR/bundle" --workspace "$WORKSPACE" || status=$?
  if [ -d "$DIR/bundle-sets/results" ]; then
    echo
    "$CLI" import-results "$DIR/bundle-sets" --workspace "$WORKSPACE" || status=$?
  fi
  echo
  echo "the sweeps, ranked by what the GPU measured:"
  sweep_matmuls
  if [ -d "$DIR/bundle-sets/results" ]; then
    sweep_sets
  fi
  exit $status
  ;;
*)
  sed -n '2,26p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
