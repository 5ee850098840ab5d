#!/usr/bin/env python3
"""Runs two compiled variants of a model block of examples/models/ (IREE's
default configs and tuned or hand-configured ones) on the same seeded random
inputs with iree-run-module on the GPU, and prints how far their outputs are
apart. Run by the models.sh of scripts/gpu-check.sh's kinds and tune bundles,
on the GPU machine (needs numpy):

    gpu-compare-models.py IREE_RUN_MODULE DEFAULT.vmfb OTHER.vmfb [MODEL]

MODEL: sdxl_unet_resblock (default) or llama3_8b_decoder_layer.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

# The block's arguments (examples/models/sdxl_unet_resblock.mlir): the
# activation, GroupNorm scales and shifts, and the convolutions' filters.
SHAPES = [(2, 128, 128, 320), (320,), (320,), (320,), (320,), (3, 3, 320, 320),
          (3, 3, 320, 320), (3, 3, 320, 320), (320,), (320,), (640,), (640,),
          (3, 3, 320, 640), (3, 3, 640, 640), (1, 1, 320, 640)]
# examples/models/llama3_8b_decoder_layer.mlir: the activation, the norms'
# weights and the projections'.
DECODER_SHAPES = [(2048, 4096), (4096,), (4096, 4096), (4096, 4096), (4096, 4096),
                  (4096, 4096), (4096,), (14336, 4096), (14336, 4096), (4096, 14336)]
MODELS = {"sdxl_unet_resblock": ("unet_resblock", SHAPES),
          "llama3_8b_decoder_layer": ("decoder_layer", DECODER_SHAPES)}


def main():
    run_module, default, other = sys.argv[1:4]
    model = sys.argv[4] if len(sys.argv) > 4 else "sdxl_unet_resblock"
    function, shapes = MODELS[model]
    rng = np.random.default_rng(20261127)
    with tempfile.TemporaryDirectory() as work:
        inputs = []
        for i, shape in enumerate(shapes):
            if model == "sdxl_unet_resblock":
                scale = 1.0 if i == 0 else (0.05 if len(shape) == 4 else 1.0)
            else:  # weights scaled as a trained layer's are (1/sqrt(fan-in))
                scale = 1.0 if i == 0 or len(shape) == 1 else shape[1] ** -0.5
            value = (rng.standard_normal(shape) * scale).astype(np.float16)
            if model == "sdxl_unet_resblock" and len(shape) == 1 and i % 2 == 0:
                value = (rng.standard_normal(shape) * 0.1).astype(np.float16)
            path = os.path.join(work, f"in{i}.npy")
            np.save(path, value)
            inputs.append(f"--input=@{path}")
        outputs = []
        for name, module in (("default", default), ("other", other)):
            out = os.path.join(work, f"{name}.npy")
            ran = subprocess.run(
                [run_module, f"--module={module}", "--device=cuda",
                 f"--function={function}", *inputs, f"--output=@{out}"],
                capture_output=True, text=True, timeout=300)
            if ran.returncode != 0:
                print(f"compare: {name} failed: {ran.stderr[-500:]}")
                return 1
            outputs.append(np.load(out).astype(np.float32))
        a, b = outputs
        diff = np.abs(a - b)
        scale = max(float(np.abs(a).max()), 1e-6)
        print(f"compare: outputs {a.shape}, max |default| {scale:.4g}, "
              f"max |diff| {float(diff.max()):.4g} "
              f"({float(diff.max()) / scale:.3%} of it), "
              f"mean |diff| {float(diff.mean()):.4g}, "
              f"finite: {bool(np.isfinite(b).all())}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
