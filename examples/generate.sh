#!/usr/bin/env bash
# Regenerates the dispatch benchmark files under examples/ with the pinned
# iree-compile: one command, no arguments.
#
#   examples/generate.sh [IREE_COMPILE]
#
# Each source in examples/sources/ is compiled for rocm/gfx942, cuda/sm_90 and
# (the small ones) llvm-cpu (the scaled FP4 matmul for rocm/gfx950 only) with --iree-hal-dump-executable-benchmarks-to and
# --iree-codegen-add-tuner-attributes; every dispatch benchmark IREE writes
# (it carries the lowering_config and translation_info IREE chose) lands in
# examples/<target>/<dispatch>.benchmark.mlir.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
IREE_COMPILE="${1:-$ROOT/.deps/iree-3.13.0/iree/compiler/_mlir_libs/iree-compile}"
[ -x "$IREE_COMPILE" ] || { echo "no iree-compile at $IREE_COMPILE (run scripts/tilescope.sh deps)" >&2; exit 1; }

ROCM_FLAGS=(--iree-hal-target-device=hip --iree-rocm-target=gfx942)
# IREE 3.13 knows no sm_90 (KnownTargets.cpp's NVIDIA table skips Hopper:
# `--iree-cuda-target=sm_90` fails with "missing GPU target"). The source is
# instead compiled against the explicit H100 target in targets/, which IREE
# takes as given.
CUDA_DEVICE="$(cat "$HERE/targets/cuda_sm_90.device.mlir")"
# A generic x86-64 CPU, so the committed CPU benchmarks run on any x86-64 machine.
CPU_FLAGS=(--iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu
  --iree-llvmcpu-target-triple=x86_64-unknown-linux-gnu --iree-llvmcpu-target-cpu=generic)

GPU_SOURCES=(matmul_f16_1024 reduction_4x6656x16384 softmax_f32 matmul_f32_small conv_3x3_f16 batch_matmul_f16 attention_f16 matvec_bias_f16)
CPU_SOURCES=(matmul_f32_small softmax_f32)
# Sources whose compilation_info names an AMD intrinsic.
ROCM_ONLY_SOURCES=(matmul_f16_vector_distribute reduce_middle)
# Scaled (MX) matmuls: only gfx950 (CDNA4) has the MFMA_SCALE intrinsics.
GFX950_FLAGS=(--iree-hal-target-device=hip --iree-rocm-target=gfx950)
GFX950_SOURCES=(scaled_matmul_f4)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

dump() { # target-dir source flags...
  local target="$1" source="$2"
  shift 2
  local out="$work/$target/$source"
  mkdir -p "$out" "$HERE/$target"
  local input="$HERE/sources/$source.mlir"
  if [ "$target" = cuda_sm_90 ]; then
    input="$work/$source.sm_90.mlir"
    { printf 'module attributes {hal.device.targets = [%s]} {\n' "$CUDA_DEVICE"
      cat "$HERE/sources/$source.mlir"
      printf '}\n'; } >"$input"
  fi
  "$IREE_COMPILE" "$input" "$@" \
    --iree-codegen-add-tuner-attributes \
    --iree-hal-dump-executable-benchmarks-to="$out" -o "$work/$source.vmfb"
  for file in "$out"/*_benchmark.mlir; do
    # module_<executable>_<variant>_benchmark.mlir -> <executable>.benchmark.mlir
    local name
    name="$(basename "$file" _benchmark.mlir)"
    name="${name#module_}"
    name="${name%_rocm_hsaco_fb}"
    name="${name%_cuda_nvptx_fb}"
    name="${name%_embedded_elf_x86_64}"
    cp "$file" "$HERE/$target/$name.benchmark.mlir"
    echo "examples/$target/$name.benchmark.mlir"
  done
}

rm -f "$HERE"/rocm_gfx942/*.benchmark.mlir "$HERE"/rocm_gfx950/*.benchmark.mlir \
  "$HERE"/cuda_sm_90/*.benchmark.mlir "$HERE"/llvm_cpu/*.benchmark.mlir
for source in "${GPU_SOURCES[@]}"; do
  dump rocm_gfx942 "$source" "${ROCM_FLAGS[@]}"
  dump cuda_sm_90 "$source"
done
for source in "${ROCM_ONLY_SOURCES[@]}"; do
  dump rocm_gfx942 "$source" "${ROCM_FLAGS[@]}"
done
for source in "${GFX950_SOURCES[@]}"; do
  dump rocm_gfx950 "$source" "${GFX950_FLAGS[@]}"
done
for source in "${CPU_SOURCES[@]}"; do
  dump llvm_cpu "$source" "${CPU_FLAGS[@]}"
done
