#!/usr/bin/env bash
# The wheel as a user gets it: built by the README's command, installed into
# a fresh virtual environment by docs/python.md's one command (the wheel with
# its `iree` extra: iree-base-compiler and iree-base-runtime 3.13.0 from
# PyPI), and there it opens an example, draws it, compiles it and times it
# with that environment's IREE (not the set-up's .deps). ctest runs it
# (python_wheel).
#
#   scripts/wheel-check.sh [WORK_DIR]      (default build/wheel-check)
#
# WORK_DIR/cmake keeps the wheel's CMake build, so a rerun is incremental.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mkdir -p "${1:-$ROOT/build/wheel-check}" && cd "${1:-$ROOT/build/wheel-check}" && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
IREE_VERSION=3.13.0
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
# Nothing of this build's environment leaks into the user's.
unset TILESCOPE_IREE_DIR TILESCOPE_WORKER PYTHONPATH VIRTUAL_ENV

log() { printf 'wheel-check: %s\n' "$*"; }
rm -rf "$WORK/dist" "$WORK/venv" "$WORK/workspace"

log "building the wheel (pip wheel, scikit-build-core)"
start=$SECONDS
"$PYTHON" -m pip wheel --quiet --disable-pip-version-check --no-deps "$ROOT" \
  -w "$WORK/dist" --config-settings=build-dir="$WORK/cmake"
wheel=$(ls "$WORK"/dist/tilescope-*.whl)
log "built $(basename "$wheel") in $((SECONDS - start)) s"

log "a fresh virtual environment: the wheel with its iree extra (IREE $IREE_VERSION from PyPI)"
"$PYTHON" -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel[iree]"

cd /
"$WORK/venv/bin/python" - "$ROOT/examples" "$WORK/workspace" <<'PY'
import pathlib
import sys

import tilescope

examples, workspace = pathlib.Path(sys.argv[1]), sys.argv[2]
iree = tilescope.iree()
print("wheel-check: IREE", iree["found_by"], iree["compiler_library"])
assert iree["found_by"] == "Python package", iree
assert iree["compiler_library"].startswith(sys.prefix), (iree, sys.prefix)
assert pathlib.Path(iree["worker"]).parent == pathlib.Path(tilescope.__file__).parent, iree

for path, op in [(examples / "rocm_gfx942" / "matmul_f16_1024_dispatch_0.benchmark.mlir", "0:0"),
                 (examples / "llvm_cpu" / "matmul_f32_small_dispatch_0.benchmark.mlir", "0:1")]:
    document = tilescope.open(path)
    if "rocm" in path.parent.name:
        assert b"<svg" in tilescope.picture(document, op, view="grid").svg()
    report = tilescope.run_try(document, op, stage="compile", workspace=workspace)
    assert report["outcome"] == "ok", report
    module = pathlib.Path(report["compile"]["artifacts"]["module"])
    assert module.is_file(), report
    print(f"wheel-check: {path.name} {op}: compiled with the environment's IREE "
          f"in {report['compile']['seconds']:.1f} s ({module.stat().st_size} bytes)")

# Timed with the environment's iree-benchmark-module (iree-base-runtime).
cpu = tilescope.open(examples / "llvm_cpu" / "matmul_f32_small_dispatch_0.benchmark.mlir")
timed = tilescope.run_try(cpu, "0:0", stage="bench", workspace=workspace)
assert timed["outcome"] == "ok" and timed["bench"]["ran"], timed
print(f"wheel-check: timed on this CPU: {timed['bench']['median_us']:.1f} us a call")
PY
log "passed"
