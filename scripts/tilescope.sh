#!/usr/bin/env bash
# Tilescope set-up: installs what is missing on a Debian 12 machine, builds, and
# then either opens the GUI on a bundled example (`run`) or runs every test (`test`).
#
#   scripts/tilescope.sh run     install what is missing, build, open the GUI
#   scripts/tilescope.sh test    install what is missing, build, run every test
#   scripts/tilescope.sh deps    only install what is missing
#   scripts/tilescope.sh build   install what is missing and build
#
# Every step checks before it acts, so a second run takes seconds.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${TILESCOPE_BUILD_DIR:-$ROOT/build}"
# The pinned IREE release. Both wheels must carry the same version.
IREE_VERSION="3.13.0"
IREE_PREFIX="$ROOT/.deps/iree-$IREE_VERSION"
# ptxas and nvdisasm, for NVIDIA resource usage (registers, spills) of
# compiled PTX and the SASS of its cubin with the registers live at each
# instruction: from NVIDIA's nvidia-cuda-nvcc and nvidia-cuda-nvdisasm
# wheels (one CUDA release: nvdisasm reads its own ptxas's cubins), the
# same way as IREE's wheels.
NVCC_VERSION="13.5.37"
NVCC_PREFIX="$ROOT/.deps/cuda-$NVCC_VERSION"
# The `onnx` package (and the protobuf it needs), for IREE's own
# iree-import-onnx (in the compiler wheel) and the test that builds an ONNX
# model with it: unpacked beside IREE, on PYTHONPATH only where used.
ONNX_VERSION="1.17.0"
PROTOBUF_VERSION="5.28.3"
ONNX_PREFIX="$ROOT/.deps/onnx-$ONNX_VERSION"

# Debian packages, each with why it is here.
APT_PACKAGES=(
  g++ cmake ninja-build pkg-config  # the C++20 toolchain and build system
  qt6-base-dev qt6-base-dev-tools   # Qt Widgets, Gui, Core, Concurrent, Test
  qt6-svg-dev libgl-dev             # Qt Svg; Qt6Gui's CMake config needs the GL headers
  nlohmann-json3-dev                # JSON in core/ (no Qt there): doctor --json, benchmark output
  libsimdjson-dev                   # reads the parse worker's answer straight into the model (no JSON DOM)
  libdtl-dev                        # the shortest edit script behind `tilescope-cli diff` (header only)
  libyaml-cpp-dev                   # reads the AMDGPU kernel metadata (YAML) in compiled ISA
  libsqlite3-dev                    # the history of compiles and runs (one file, safe across processes)
  libz3-dev                         # Z3: the solver the IREE constraint space is checked and timed against (tests, bench)
  python3 python3-pip unzip         # pip downloads the pinned IREE wheels; unzip unpacks them
  python3-dev pybind11-dev          # the `tilescope` Python package (python/): headers and the bindings library
  python3-numpy python3-pytest      # its layouts come back as NumPy arrays; pytest runs its tests
  python3-venv                      # the wheel's test installs it into a fresh virtual environment
  doxygen                           # the C++ API pages (cmake --build build --target api-docs)
  openssh-client openssh-server     # runs on a host over ssh; the tests start their own sshd on 127.0.0.1
  slurm-client slurmctld slurmd munge  # sweeps on a Slurm cluster; the tests start their own single-node Slurm
  xvfb xauth fonts-dejavu-core      # a display for screenshots and a font for the scenes
  clang libclang-rt-14-dev          # libFuzzer for the attribute reader's fuzz target
)

log() { printf '\033[1m[tilescope]\033[0m %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_apt_packages() {
  local missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "Debian packages: all present"
    return
  fi
  log "Debian packages: installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  # The tests start their own sshd on 127.0.0.1; a server Debian's package
  # started for the whole machine is not what was asked for: stop it.
  if [[ " ${missing[*]} " == *" openssh-server "* ]] && command -v systemctl >/dev/null &&
     systemctl is-enabled ssh >/dev/null 2>&1; then
    log "openssh-server: the tests start their own; disabling the system-wide ssh service it enabled"
    as_root systemctl disable --now ssh >/dev/null 2>&1 || true
  fi
  # Likewise Slurm's and munge's: the tests run their own, on free ports.
  local service
  for service in slurmctld slurmd munge; do
    if [[ " ${missing[*]} " == *" $service "* ]] && command -v systemctl >/dev/null &&
       systemctl is-enabled "$service" >/dev/null 2>&1; then
      log "$service: the tests start their own; disabling the system-wide service it enabled"
      as_root systemctl disable --now "$service" >/dev/null 2>&1 || true
    fi
  done
}

# Downloads wheels (zips) for CPython 3.11 on x86-64 into DIR, nothing installed.
download_wheels() { # DIR PLATFORM PACKAGE...
  local wheels="$1" platform="$2"
  shift 2
  mkdir -p "$wheels"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform "$platform" --python-version 3.11 --implementation cp -d "$wheels" "$@"
}

# Downloads the wheels of PACKAGE... (pinned "name==version") and unzips
# every one into PREFIX.partial, from a fresh download folder.
unpack_wheels() { # LABEL PREFIX PLATFORM PACKAGE...
  local label="$1" prefix="$2" platform="$3"
  shift 3
  local wheels="$prefix.wheels" wheel
  rm -rf "$wheels" "$prefix.partial"
  download_wheels "$wheels" "$platform" "$@" || die "could not download $label from PyPI"
  mkdir -p "$prefix.partial"
  for wheel in "$wheels"/*.whl; do
    [ -f "$wheel" ] || die "pip downloaded no wheel for $label"
    unzip -q -o "$wheel" -d "$prefix.partial"
  done
  rm -rf "$wheels"
}

# Whether PREFIX was unpacked completely before (its stamp), saying so.
already_unpacked() { # LABEL PREFIX
  [ -f "$2/.complete" ] || return 1
  log "$1: present in ${2#"$ROOT"/}"
}

# PREFIX.partial becomes PREFIX, stamped complete.
finish_prefix() { # PREFIX
  rm -rf "$1"
  mv "$1.partial" "$1"
  touch "$1/.complete"
}

# The IREE wheels are zips: we download them with pip (no install, no Python
# environment touched) and unpack them into a project-local prefix. The C++ app
# loads libIREECompiler.so in place from there and runs the tools beside it.
install_iree() {
  already_unpacked "IREE $IREE_VERSION" "$IREE_PREFIX" && return
  log "IREE $IREE_VERSION: downloading iree-base-compiler and iree-base-runtime wheels from PyPI"
  unpack_wheels "IREE $IREE_VERSION" "$IREE_PREFIX" manylinux_2_28_x86_64 \
    "iree-base-compiler==$IREE_VERSION" "iree-base-runtime==$IREE_VERSION"
  [ -f "$IREE_PREFIX.partial/iree/compiler/_mlir_libs/libIREECompiler.so" ] ||
    die "the compiler wheel has no iree/compiler/_mlir_libs/libIREECompiler.so"
  [ -d "$IREE_PREFIX.partial/iree/_runtime_libs" ] ||
    die "the runtime wheel has no iree/_runtime_libs"
  finish_prefix "$IREE_PREFIX"
  log "IREE $IREE_VERSION: unpacked into ${IREE_PREFIX#"$ROOT"/}"
}

# Only ptxas and nvdisasm are kept from the wheels (they need nothing but
# libc).
install_ptxas() {
  already_unpacked "ptxas and nvdisasm (CUDA $NVCC_VERSION)" "$NVCC_PREFIX" && return
  log "ptxas and nvdisasm (CUDA $NVCC_VERSION): downloading nvidia-cuda-nvcc and nvidia-cuda-nvdisasm from PyPI"
  local wheels="$ROOT/.deps/wheels-nvcc" tool
  rm -rf "$wheels"
  download_wheels "$wheels" manylinux2014_x86_64 "nvidia-cuda-nvcc==$NVCC_VERSION" \
    "nvidia-cuda-nvdisasm==$NVCC_VERSION" ||
    die "could not download nvidia-cuda-nvcc and nvidia-cuda-nvdisasm $NVCC_VERSION from PyPI"
  rm -rf "$NVCC_PREFIX.partial"
  mkdir -p "$NVCC_PREFIX.partial/bin"
  unzip -q -o "$wheels"/nvidia_cuda_nvcc-"$NVCC_VERSION"-*.whl 'nvidia/cu13/bin/ptxas' \
    -d "$NVCC_PREFIX.partial" || die "the nvcc wheel has no nvidia/cu13/bin/ptxas"
  unzip -q -o "$wheels"/nvidia_cuda_nvdisasm-"$NVCC_VERSION"-*.whl 'nvidia/cu13/bin/nvdisasm' \
    -d "$NVCC_PREFIX.partial" || die "the nvdisasm wheel has no nvidia/cu13/bin/nvdisasm"
  for tool in ptxas nvdisasm; do
    mv "$NVCC_PREFIX.partial/nvidia/cu13/bin/$tool" "$NVCC_PREFIX.partial/bin/$tool"
    chmod +x "$NVCC_PREFIX.partial/bin/$tool"
  done
  rm -rf "$NVCC_PREFIX.partial/nvidia"
  finish_prefix "$NVCC_PREFIX"
  rm -rf "$wheels"
  log "ptxas and nvdisasm: unpacked into ${NVCC_PREFIX#"$ROOT"/}"
}

# Python code, so the wheels unpack as they are; NumPy is Debian's.
install_onnx() {
  already_unpacked "onnx $ONNX_VERSION" "$ONNX_PREFIX" && return
  log "onnx $ONNX_VERSION: downloading onnx and protobuf $PROTOBUF_VERSION from PyPI"
  unpack_wheels "onnx $ONNX_VERSION" "$ONNX_PREFIX" manylinux2014_x86_64 \
    "onnx==$ONNX_VERSION" "protobuf==$PROTOBUF_VERSION"
  [ -f "$ONNX_PREFIX.partial/onnx/__init__.py" ] || die "the onnx wheel has no onnx/__init__.py"
  finish_prefix "$ONNX_PREFIX"
  log "onnx: unpacked into ${ONNX_PREFIX#"$ROOT"/}"
}

configure_and_build() {
  local werror=OFF
  [ "${CI:-}" = "true" ] && werror=ON
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DTILESCOPE_WARNINGS_AS_ERRORS="$werror" -DTILESCOPE_IREE_PREFIX="$IREE_PREFIX" -DTILESCOPE_PTXAS="$NVCC_PREFIX/bin/ptxas" \
      -DTILESCOPE_ONNX_PREFIX="$ONNX_PREFIX" -DPython3_EXECUTABLE=/usr/bin/python3
  else
    cmake "$BUILD_DIR" -DTILESCOPE_WARNINGS_AS_ERRORS="$werror" -DTILESCOPE_IREE_PREFIX="$IREE_PREFIX" \
      -DTILESCOPE_PTXAS="$NVCC_PREFIX/bin/ptxas" -DTILESCOPE_ONNX_PREFIX="$ONNX_PREFIX" \
      -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
  fi
  # Two cores on our machines: build with both.
  cmake --build "$BUILD_DIR" --parallel "${TILESCOPE_JOBS:-$(nproc)}"
}

run_tests() {
  # The GUI tests use the offscreen platform; nothing here needs a display.
  export QT_QPA_PLATFORM=offscreen
  ctest --test-dir "$BUILD_DIR" --output-on-failure --parallel "${TILESCOPE_JOBS:-$(nproc)}"
}

open_gui() {
  local example="$ROOT/examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir"
  if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    # No display: open the real window on a virtual X server (Xvfb), save a
    # screenshot of it and print what it listed.
    local shot="$BUILD_DIR/tilescope-screenshot.png"
    log "no display: opening the window under Xvfb; screenshot in $shot"
    xvfb-run -a -s "-screen 0 1600x1000x24" \
      "$BUILD_DIR/app/tilescope" --screenshot "$shot" "$example"
    return
  fi
  exec "$BUILD_DIR/app/tilescope" "$example"
}

main() {
  local command="${1:-}"
  case "$command" in
  deps) install_apt_packages; install_iree; install_ptxas; install_onnx ;;
  build) install_apt_packages; install_iree; install_ptxas; install_onnx; configure_and_build ;;
  run) install_apt_packages; install_iree; install_ptxas; install_onnx; configure_and_build; open_gui ;;
  test) install_apt_packages; install_iree; install_ptxas; install_onnx; configure_and_build; run_tests ;;
  *) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
}

main "$@"
