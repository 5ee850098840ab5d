#!/bin/bash
# Makes the README's pictures again from a build (build/ by default): the
# views through `tilescope FILE --op --set --view --screenshot`, the panels
# that need a run or IREE's answer through the window tests that drive them
# (TILESCOPE_SCREENSHOT_DIR). Needs Xvfb (xvfb-run) for the window.
#   docs/screenshots.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
app="$build/app/tilescope"
examples=examples
docs=docs
# A 1600x1000 screen gives the window its first-start size, 1440x900.
shot() {
  local out=$1
  shift
  xvfb-run -a -s "-screen 0 1600x1000x24" "$app" "$@" --screenshot "$docs/$out" >/dev/null
  echo "$docs/$out"
}

shot screenshot-main-window.png \
  "$examples/rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir" --op 0:0
shot screenshot-view-layouts.png \
  "$examples/rocm_gfx942/matmul_f16_vector_distribute_dispatch_0.benchmark.mlir" \
  --op 0:0 --view layouts
shot screenshot-view-basis.png \
  "$examples/rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir" \
  --op 0:0 --set 'lane_basis=[[4, 16], [0, 1]]' --view lane-basis
shot screenshot-view-mma.png \
  "$examples/rocm_gfx942/matmul_f16_vector_distribute_dispatch_0.benchmark.mlir" \
  --op 0:0 --view mma
shot screenshot-view-scaled-mma.png \
  "$examples/rocm_gfx950/scaled_matmul_f4_dispatch_0.benchmark.mlir" --op 0:0 --view mma
shot screenshot-view-banks.png \
  "$examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir" --op 0:0 --view swizzle
shot screenshot-view-grid.png \
  "$examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir" --op 0:0 \
  --set 'workgroup=[128, 128, 0]' --view grid
shot screenshot-view-attention.png \
  tests/core/edit/data/attention_sm_90.mlir --op 0:0 --view layouts
# The window on a 1280x800 laptop screen.
shot screenshot-1280x800.png \
  "$examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir" \
  --op 0:0 --window-size 1280x800

# Panels that need IREE's answer or a run: the tests that drive them.
pictures=$(mktemp -d)
trap 'rm -rf "$pictures"' EXIT
run_test() {
  TILESCOPE_SCREENSHOT_DIR="$pictures" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/tests/$1" "${@:2}" >/dev/null
}
run_test widgets_split_k_view showsIreesSplitsRulesAndDispatches
run_test widgets_field_editors countsAndDigitsAreTypedAndOkMakesOneEdit \
  tilesSayWhatTheirNumbersMean
run_test widgets_sweep_panel sweepsStopsResumesAndLoadsTheBest
run_test widgets_tune_panel aProgramTunedInTheWindowIsTheOneTheCliTunes
run_test widgets_editor_window typingRedrawsThenEnterApplies
run_test widgets_window_jobs showsAndUsesIreesDefault comparesLayoutsWithIree \
  cpuExampleCompilesRunsAndChecks gpuCompileShowsResources \
  sassLinesReachTheLayoutCells attentionInstructionsReachItsOperandPanels \
  igemmImageLoadsMarkTheirIgemmPoints
run_test widgets_instructions_counters
for pair in split_k_formed:screenshot-split-k basis_editor:screenshot-basis-editor \
            tile_editor:screenshot-tile-editor \
            sweep-panel:screenshot-sweep iree-default:screenshot-iree-default \
            iree-layouts:screenshot-iree-layouts editor-problem:screenshot-editor \
            run-panel-cpu:screenshot-run-panel tune-panel:screenshot-tune \
            run-panel-instructions:screenshot-instructions \
            layout-instruction-cells:screenshot-instruction-cells \
            layout-load-cells:screenshot-operand-cells \
            instructions-sass:screenshot-instructions-sass \
            instructions-stalls:screenshot-instructions-stalls \
            attention-store-cells:screenshot-attention-cells \
            igemm-image-cells:screenshot-igemm-cells; do
  cp "$pictures/${pair%%:*}.png" "$docs/${pair##*:}.png"
  echo "$docs/${pair##*:}.png"
done
