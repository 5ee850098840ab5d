#!/usr/bin/env bash
# How fast IREE's own tuner lists its candidates for the examples'
# matmuls, beside bench_constraints' figures for Tilescope. Not part of the
# build or CI: it installs the peer in its own virtual environment under
# build/peers (amdsharktuner 3.9.0 from PyPI, with the IREE release it
# imports against: 3.9.0; its monkey-patched register_attribute_builder
# does not import with IREE 3.13's Python bindings), has that IREE dump the
# dispatch benchmarks the tuner reads, and times its candidate generation.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VENV="$ROOT/build/peers/amdsharktuner-venv"
WORK="$ROOT/build/peers/amdsharktuner"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "iree-base-compiler==3.9.0" "iree-base-runtime==3.9.0" \
    "amdsharktuner==3.9.0"
fi
TOOLS="$("$VENV/bin/python" -c 'import iree.compiler.tools as t, os; print(os.path.dirname(t.__file__))')/../_mlir_libs"
for source in matmul_f16_1024 matmul_f32_small; do
  mkdir -p "$WORK/$source"
  "$TOOLS/iree-compile" "$ROOT/examples/sources/$source.mlir" \
    --iree-hal-target-device=hip --iree-hip-target=gfx942 \
    --iree-config-add-tuner-attributes \
    --iree-hal-dump-executable-benchmarks-to="$WORK/$source" -o /dev/null
  for pipeline in TileAndFuse VectorDistribute; do
    printf '%-18s %-17s ' "$source" "$pipeline"
    "$VENV/bin/python" "$ROOT/bench/peers/amdsharktuner_space.py" \
      "$WORK/$source"/*_benchmark.mlir "$pipeline" 2>/dev/null | tail -1
  done
done
