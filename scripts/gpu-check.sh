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
#       an H100 with Nsight Compute, before the per-instruction pass of one
#       more profiled launch a kernel); then the cost model's other measured
#       sets as a second bundle, DIR/bundle-sets, timed without the profiler
#       (about 3 minutes): the seed's reduction over 24 configs and a 2048^3
#       f32 matmul on the vector units (TileAndFuse) over 32
#   DIR/bundle/run.sh, DIR/bundle-sets/run.sh
#                                        there (the GPU, no compiler): time
#       every module per dispatch and one per submission, and profile each
#       with Nsight Compute (or rocprofv3) where TILESCOPE_PROFILE says
#   scripts/gpu-check.sh prepare-kinds [DIR], report-kinds [DIR]: the same
#       for the kinds beyond matmuls and reductions (bundle-kinds: the
#       examples' conv and batch matmul, the model blocks' convolutions,
#       attention and projections, each with IREE's default and neighbours;
#       the blocks whole; PyTorch's kernels for the same shapes), its own
#       workspace (DIR/workspace-kinds); on the GPU machine run
#       bundle-kinds/models.sh, python3 bundle-kinds/gpu-torch-refs.py and
#       TILESCOPE_PROFILE=off bundle-kinds/run.sh (137 modules: about 6
#       minutes on an H200 with TILESCOPE_REPETITIONS=3
#       TILESCOPE_TARGET_US=10000; the first 112 took 293 s)
#   scripts/gpu-check.sh prepare-tune [DIR], report-tune [DIR]: the model
#       blocks tuned whole (docs/tuning.md) for sm_90: `tune` here, compile-
#       only (each kind's IREE default and TUNE_CANDIDATES nearest candidates,
#       default 8, compiled; the cost model's picks as a spec IREE is shown
#       to apply), every kernel in bundle-tune, beside each block compiled
#       with and without that spec; on the GPU machine run
#       bundle-tune/models.sh (both programs timed per call, outputs
#       compared on the same random inputs) and TILESCOPE_PROFILE=off
#       bundle-tune/run.sh; report-tune imports the times and tunes again,
#       now on the measured times (winners kept only when faster beyond
#       noise), its own workspace (DIR/workspace-tune)
#   scripts/gpu-check.sh report [DIR]    here again, with DIR/bundle/results
#       back: imports the results into DIR's own history and prints, per
#       kernel, the per-dispatch time against the profiler's (a "!" past 3 %),
#       the resources Tilescope read against the driver's, and the cost
#       model's order against the measured one (rank correlation, and the
#       predicted first against the fastest); and for each kernel profiled
#       per instruction (Nsight Compute's source counters over its SASS)
#       its loop's stall samples and its shared-memory wavefronts counted
#       against those the banks predict
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
# The kinds beyond matmuls and reductions (a third bundle, bundle-kinds,
# timed without the profiler): the examples' convolution (an implicit GEMM)
# and batch matmul, and the model blocks' convolutions, attention and
# projections, each with IREE's default and its neighbours; beside them the
# two model blocks whole (models/, timed per call) and PyTorch's kernels for
# the same shapes (scripts/gpu-torch-refs.py: cuDNN, cuBLAS, SDPA).
CONV="$ROOT/examples/cuda_sm_90/conv_3x3_f16_dispatch_0.benchmark.mlir"
SWEEP_CONV="gpu-check sm_90 conv 16x64x64x256 nearest 24"
BATCH_MATMUL="$ROOT/examples/cuda_sm_90/batch_matmul_f16_dispatch_0.benchmark.mlir"
SWEEP_BATCH_MATMUL="gpu-check sm_90 batch matmul 32x1024x1024x128 neighbours"
SWEEP_ATTENTION="gpu-check sm_90 attention 32x2048x128 grid 12"
ATTENTION_VARY=(--vary 'workgroup[1]=32,64,128' --vary 'reduction[3]=32,64' --vary 'workgroup[4]=32,64')
SWEEP_UNET_CONV="gpu-check sm_90 unet conv 2x128x128x320 nearest 6"
SWEEP_UNET_CONV640="gpu-check sm_90 unet conv 2x64x64x640 nearest 6"
# Held out from the attention model's calibration (the grid above) and from
# the convolutions the model was judged on: whole value columns per
# workgroup, and two more of the res block's convolutions (the 320 -> 640
# one and the stride-2 one).
SWEEP_ATTENTION_WHOLE_N="gpu-check sm_90 attention 32x2048x128 whole N 9"
ATTENTION_WHOLE_N_VARY=(--vary 'workgroup[1]=64,128,256' --vary 'reduction[3]=32,64,128'
  --vary 'workgroup[4]=128')
SWEEP_UNET_CONV320_640="gpu-check sm_90 unet conv 2x64x64x320to640 nearest 8"
SWEEP_UNET_CONV_STRIDE2="gpu-check sm_90 unet conv stride 2 nearest 8"

# A dispatch benchmark scaled from one of the examples' sources, as
# examples/generate.sh makes them: the source with FROM replaced by TO,
# compiled for the H100 target by the pinned iree-compile, IREE's own config
# in it. make_dispatch SOURCE FROM TO OUT
make_dispatch() {
  local work="$DIR/work-$(basename "$4" .benchmark.mlir)"
  sed "s/$2/$3/g" "$ROOT/examples/sources/$1.mlir" | compile_for_sm90 "$work"
  cp "$work"/*_benchmark.mlir "$4"
}

# Compiles the source on stdin for the H100 target into WORK: the program
# (WORK/program.vmfb) and its dispatch benchmarks (IREE's configs, the
# tuner's attributes). compile_for_sm90 WORK
compile_for_sm90() {
  mkdir -p "$1"
  { printf 'module attributes {hal.device.targets = [%s]} {\n' \
      "$(cat "$ROOT/examples/targets/cuda_sm_90.device.mlir")"
    cat
    printf '}\n'; } >"$1/source.mlir"
  "$IREE_COMPILE" "$1/source.mlir" --iree-codegen-add-tuner-attributes \
    --iree-hal-dump-executable-benchmarks-to="$1" -o "$1/program.vmfb"
}

# The dispatch benchmarks of examples/models/MODEL.mlir compiled for sm_90
# (IREE's own configs), in $DIR/MODEL/, and the whole block as
# $DIR/MODEL/program.vmfb. model_dispatches MODEL
model_dispatches() {
  compile_for_sm90 "$DIR/$1" <"$ROOT/examples/models/$1.mlir"
}
# The UNet block with its six GroupNorm reductions configured by hand: IREE's
# default puts one lane of 32 to work in a 1,024-thread workgroup (96 % of
# the block's 86 ms on an H200); here 32 subgroups x 32 lanes each take one
# row of 10 (or 20) channels per step, 1,024 rows a step. Written with
# set-config on the block as configure makes it, and compiled whole, into
# $DIR/$UNET/groupnorm.vmfb.
unet_with_groupnorm_configs() {
  local configured="$DIR/$UNET/configured.mlir" spec op channels
  "$CLI" configure "$ROOT/examples/models/$UNET.mlir" --target sm_90 -o "$configured" >/dev/null
  for spec in 0:0:10 1:0:10 6:0:10 7:0:10 10:0:20 11:0:20; do
    op=${spec%:*}
    channels=${spec##*:}
    "$CLI" set-config "$configured" --in-place --op "$op" \
      --set "partial_reduction=[0, 0, 1024, $channels]" --set "thread=[0, 0, 1, $channels]" \
      --set 'lane_basis=[[1, 1, 32, 1], [0, 1, 2, 3]]' \
      --set 'subgroup_basis=[[1, 1, 32, 1], [0, 1, 2, 3]]' >/dev/null
  done
  "$CLI" compile "$configured" --target sm_90 --out "$DIR/$UNET/groupnorm" \
    --workspace "$WORKSPACE" >/dev/null
  cp "$DIR/$UNET/groupnorm/module.vmfb" "$DIR/$UNET/groupnorm.vmfb"
}

# The dispatch benchmark of dispatch N of MODEL's function FUNCTION.
model_dispatch() { echo "$DIR/$1/module_$2_dispatch_$3_cuda_nvptx_fb_benchmark.mlir"; }
LLAMA=llama3_8b_decoder_layer
UNET=sdxl_unet_resblock

# A sweep that exits non-zero (some candidates invalid or failed) still
# leaves its valid candidates in the history for the bundle.
kept() { echo "gpu-check: that sweep exited $1 (its valid candidates are kept)"; }
sweep_kinds() {
  "$CLI" sweep "$CONV" --compile-only --nearest 24 --name "$SWEEP_CONV" \
    --workspace "$WORKSPACE" | tail -n 30 || kept $?
  "$CLI" sweep "$(model_dispatch $LLAMA decoder_layer 6)" --compile-only "${ATTENTION_VARY[@]}" \
    --name "$SWEEP_ATTENTION" --workspace "$WORKSPACE" | tail -n 16 || kept $?
  "$CLI" sweep "$BATCH_MATMUL" --compile-only --name "$SWEEP_BATCH_MATMUL" \
    --workspace "$WORKSPACE" | tail -n 60 || kept $?
  "$CLI" sweep "$(model_dispatch $UNET unet_resblock 3)" --compile-only --nearest 6 \
    --name "$SWEEP_UNET_CONV" --workspace "$WORKSPACE" | tail -n 10 || kept $?
  "$CLI" sweep "$(model_dispatch $UNET unet_resblock 17)" --compile-only --nearest 6 \
    --name "$SWEEP_UNET_CONV640" --workspace "$WORKSPACE" | tail -n 10 || kept $?
  sweep_held_out
}
sweep_held_out() {
  "$CLI" sweep "$(model_dispatch $LLAMA decoder_layer 6)" --compile-only \
    "${ATTENTION_WHOLE_N_VARY[@]}" --name "$SWEEP_ATTENTION_WHOLE_N" \
    --workspace "$WORKSPACE" | tail -n 12 || kept $?
  "$CLI" sweep "$(model_dispatch $UNET unet_resblock 12)" --compile-only --nearest 8 \
    --name "$SWEEP_UNET_CONV320_640" --workspace "$WORKSPACE" | tail -n 12 || kept $?
  "$CLI" sweep "$(model_dispatch $UNET unet_resblock 8)" --compile-only --nearest 8 \
    --name "$SWEEP_UNET_CONV_STRIDE2" --workspace "$WORKSPACE" | tail -n 12 || kept $?
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
prepare-kinds)
  WORKSPACE="$DIR/workspace-kinds"
  rm -rf "$WORKSPACE" "$DIR/bundle-kinds" "$DIR/$LLAMA" "$DIR/$UNET"
  mkdir -p "$WORKSPACE"
  model_dispatches $LLAMA
  model_dispatches $UNET
  tries=()
  for dispatch in "$CONV" "$BATCH_MATMUL" \
    "$(model_dispatch $LLAMA decoder_layer 6)" "$(model_dispatch $LLAMA decoder_layer 1)" \
    "$(model_dispatch $LLAMA decoder_layer 9)" "$(model_dispatch $LLAMA decoder_layer 11)" \
    "$(model_dispatch $UNET unet_resblock 3)" "$(model_dispatch $UNET unet_resblock 8)" \
    "$(model_dispatch $UNET unet_resblock 12)" "$(model_dispatch $UNET unet_resblock 17)"; do
    id=$(compiled_try "$dispatch")
    tries+=(--try "$id")
  done
  sweep_kinds
  "$CLI" bundle "${tries[@]}" --sweep "$SWEEP_CONV" --sweep "$SWEEP_ATTENTION" \
    --sweep "$SWEEP_BATCH_MATMUL" --sweep "$SWEEP_UNET_CONV" --sweep "$SWEEP_UNET_CONV640" \
    --sweep "$SWEEP_ATTENTION_WHOLE_N" --sweep "$SWEEP_UNET_CONV320_640" \
    --sweep "$SWEEP_UNET_CONV_STRIDE2" -o "$DIR/bundle-kinds" --workspace "$WORKSPACE"
  mkdir -p "$DIR/bundle-kinds/models"
  cp "$DIR/$LLAMA/program.vmfb" "$DIR/bundle-kinds/models/$LLAMA.vmfb"
  cp "$DIR/$UNET/program.vmfb" "$DIR/bundle-kinds/models/$UNET.vmfb"
  unet_with_groupnorm_configs
  cp "$DIR/$UNET/groupnorm.vmfb" "$DIR/bundle-kinds/models/${UNET}_groupnorm.vmfb"
  cp "$ROOT/scripts/gpu-compare-models.py" "$DIR/bundle-kinds/"
  cp "$ROOT/scripts/gpu-torch-refs.py" "$DIR/bundle-kinds/"
  # The blocks whole, one call at a time, their inputs splats (the kernels'
  # times do not depend on the values).
  cat >"$DIR/bundle-kinds/models.sh" <<'MODELS'
#!/usr/bin/env bash
# The model blocks whole on the GPU, per call (every dispatch of the block,
# IREE's default configs), their inputs splats.
here=$(cd "$(dirname "$0")" && pwd)
bm="$here/tools/iree-benchmark-module"
f16() { for shape in "$@"; do printf -- '--input=%sxf16=0.01 ' "$shape"; done; }
"$bm" --module="$here/models/llama3_8b_decoder_layer.vmfb" --device=cuda \
  --function=decoder_layer --benchmark_repetitions=5 --benchmark_min_time=0.2s \
  $(f16 2048x4096 4096 4096x4096 4096x4096 4096x4096 4096x4096 4096 14336x4096 \
    14336x4096 4096x14336) 2>&1 | grep -E 'decoder_layer|Error|error' | head -8
"$bm" --module="$here/models/sdxl_unet_resblock.vmfb" --device=cuda \
  --function=unet_resblock --benchmark_repetitions=5 --benchmark_min_time=0.2s \
  $(f16 2x128x128x320 320 320 320 320 3x3x320x320 3x3x320x320 3x3x320x320 320 320 \
    640 640 3x3x320x640 3x3x640x640 1x1x320x640) 2>&1 |
  grep -E 'unet_resblock|Error|error' | head -8
# The same block with its GroupNorm reductions configured by hand: timed the
# same way, and its outputs compared with IREE's default's on the same
# random inputs (numpy on the GPU machine).
"$bm" --module="$here/models/sdxl_unet_resblock_groupnorm.vmfb" --device=cuda \
  --function=unet_resblock --benchmark_repetitions=5 --benchmark_min_time=0.2s \
  $(f16 2x128x128x320 320 320 320 320 3x3x320x320 3x3x320x320 3x3x320x320 320 320 \
    640 640 3x3x320x640 3x3x640x640 1x1x320x640) 2>&1 |
  grep -E 'unet_resblock|Error|error' | head -8
python3 "$here/gpu-compare-models.py" "$here/tools/iree-run-module" \
  "$here/models/sdxl_unet_resblock.vmfb" "$here/models/sdxl_unet_resblock_groupnorm.vmfb"
MODELS
  chmod +x "$DIR/bundle-kinds/models.sh"
  du -sh "$DIR/bundle-kinds"
  echo "next, on the GPU machine: $DIR/bundle-kinds/models.sh;" \
    "python3 $DIR/bundle-kinds/gpu-torch-refs.py; TILESCOPE_PROFILE=off $DIR/bundle-kinds/run.sh"
  ;;
prepare-tune)
  WORKSPACE="$DIR/workspace-tune"
  rm -rf "$WORKSPACE" "$DIR/bundle-tune"
  mkdir -p "$WORKSPACE" "$DIR/bundle-tune/models"
  sweeps=()
  for model in $LLAMA $UNET; do
    "$CLI" tune "$ROOT/examples/models/$model.mlir" --target sm_90 \
      --workspace "$WORKSPACE" --candidates "${TUNE_CANDIDATES:-8}" --json \
      >"$DIR/tune-$model.json" || echo "gpu-check: tune of $model exited $?"
    # Every kind's sweeps (IREE's default and the candidates), by name.
    while IFS= read -r name; do sweeps+=(--sweep "$name"); done < <(python3 - "$DIR/tune-$model.json" <<'NAMES'
import json, sys
tune = json.load(open(sys.argv[1]))
for d in tune["dispatches"]:
    if d["kind"] and d["same_as"] is None and d["default_predicted_us"] is not None:
        print(f"tune {d['kind']}: IREE's default")
        if d["sweep"]:
            print(d["sweep"])
NAMES
)
    python3 - "$DIR/tune-$model.json" "$DIR/bundle-tune/models" "$model" <<'PROGRAMS'
import json, shutil, sys
tune, out, model = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
for key, name in (("default_program", "default"), ("tuned_program", "tuned")):
    if tune.get(key):
        shutil.copy(tune[key]["folder"] + "/tested.vmfb", f"{out}/{model}.{name}.vmfb")
PROGRAMS
  done
  "$CLI" bundle "${sweeps[@]}" -o "$DIR/bundle-tune" --workspace "$WORKSPACE"
  cp "$ROOT/scripts/gpu-compare-models.py" "$DIR/bundle-tune/"
  cat >"$DIR/bundle-tune/models.sh" <<'MODELS'
#!/usr/bin/env bash
# Each model block whole on the GPU, with IREE's default configs and with the
# tune's spec, per call, and the two programs' outputs on the same random
# inputs compared (numpy on the GPU machine).
here=$(cd "$(dirname "$0")" && pwd)
bm="$here/tools/iree-benchmark-module"
f16() { for shape in "$@"; do printf -- '--input=%sxf16=0.01 ' "$shape"; done; }
time_model() { # MODEL FUNCTION SHAPES...
  local model=$1 function=$2; shift 2
  for variant in default tuned; do
    [ -f "$here/models/$model.$variant.vmfb" ] || continue
    echo "$model $variant:"
    "$bm" --module="$here/models/$model.$variant.vmfb" --device=cuda \
      --function="$function" --benchmark_repetitions=5 --benchmark_min_time=0.2s \
      $(f16 "$@") 2>&1 | grep -E "${function}.*(mean|median|stddev)|Error|error" | head -6
  done
  [ -f "$here/models/$model.tuned.vmfb" ] &&
    python3 "$here/gpu-compare-models.py" "$here/tools/iree-run-module" \
      "$here/models/$model.default.vmfb" "$here/models/$model.tuned.vmfb" "$model"
}
time_model llama3_8b_decoder_layer decoder_layer 2048x4096 4096 4096x4096 4096x4096 \
  4096x4096 4096x4096 4096 14336x4096 14336x4096 4096x14336
time_model sdxl_unet_resblock unet_resblock 2x128x128x320 320 320 320 320 3x3x320x320 \
  3x3x320x320 3x3x320x320 320 320 640 640 3x3x320x640 3x3x640x640 1x1x320x640
MODELS
  chmod +x "$DIR/bundle-tune/models.sh"
  du -sh "$DIR/bundle-tune"
  echo "next, on the GPU machine: $DIR/bundle-tune/models.sh;" \
    "TILESCOPE_PROFILE=off $DIR/bundle-tune/run.sh"
  ;;
report-tune)
  WORKSPACE="$DIR/workspace-tune"
  [ -d "$DIR/bundle-tune/results" ] || { echo "gpu-check: no $DIR/bundle-tune/results: run the bundle first" >&2; exit 2; }
  status=0
  "$CLI" import-results "$DIR/bundle-tune" --workspace "$WORKSPACE" || status=$?
  for model in $LLAMA $UNET; do
    echo
    "$CLI" tune "$ROOT/examples/models/$model.mlir" --target sm_90 \
      --workspace "$WORKSPACE" --candidates "${TUNE_CANDIDATES:-8}" || status=$?
  done
  exit $status
  ;;
report-kinds)
  WORKSPACE="$DIR/workspace-kinds"
  [ -d "$DIR/bundle-kinds/results" ] || { echo "gpu-check: no $DIR/bundle-kinds/results: run the bundle first" >&2; exit 2; }
  status=0
  "$CLI" import-results "$DIR/bundle-kinds" --workspace "$WORKSPACE" || status=$?
  echo
  echo "the sweeps, ranked by what the GPU measured:"
  sweep_kinds
  exit $status
  ;;
report)
  [ -d "$DIR/bundle/results" ] || { echo "gpu-check: no $DIR/bundle/results: run the bundle first" >&2; exit 2; }
  status=0
  "$CLI" import-results "$DIR/bundle" --workspace "$WORKSPACE" | tee "$DIR/imported.txt" || status=$?
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
  # Nsight Compute's source counters over each profiled kernel's SASS: where
  # the stall samples fall, and the banks counted against those predicted.
  echo
  echo "the kernels profiled per instruction:"
  sed -n 's/.*per-instruction counters: tilescope-cli isa \([0-9]*\)$/\1/p' "$DIR/imported.txt" |
    while read -r row; do
      "$CLI" isa "$row" --workspace "$WORKSPACE" 2>&1 |
        grep -E '^kernel .*\(sass|^  profiled|^    (loop|banks)|^      ' || true
    done
  exit $status
  ;;
*)
  sed -n '2,52p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
