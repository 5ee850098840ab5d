#!/usr/bin/env python3
"""Builds the model zoo: real networks from the packages people use, exported
by torch's own ONNX exporter and imported by IREE's own importer.

    python3 -m venv /tmp/zoo && /tmp/zoo/bin/pip install torch torchvision \\
        transformers diffusers onnx onnxscript
    /tmp/zoo/bin/python examples/models/zoo/build_zoo.py [NAME ...]

Each network is built with random weights (torch.manual_seed(0)) from its
package's own model code (torchvision, torch.nn, transformers, diffusers),
cast to f16 or f32, exported with `torch.onnx.export` and imported with the
pinned `iree-import-onnx` (.deps/iree-*, .deps/onnx-*), as docs/tuning.md tells
a user to. What is committed is that import with its large float weights
taken out (the `dense_resource` blobs at the end of the file; their keys stay
in the IR): NAME.DTYPE.mlir, a few hundred KB, and zoo.json, which records
for every blob taken out its element type, size, mean and standard deviation.
`with_weights.py` puts weights of the same statistics back from a seed, so a
test compiles and runs the network as the importer wrote it, weights inside
the module, without torch. Small blobs and every integer blob (shapes,
indices) stay in the file as they are.

CI installs no torch: only this script needs it.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
KEEP_BYTES = 4096  # blobs up to this size stay in the file verbatim


def networks():
    """name -> (what it is, source, builder returning (module, example inputs))."""
    import torch
    import torchvision.models as tv
    from torchvision.models import convnext, swin_transformer, vision_transformer

    def image(batch=1, size=224):
        return (torch.randn(batch, 3, size, size),)

    def tokens(length, vocab):
        return (torch.randint(0, vocab, (1, length)),)

    def convnext_small_depth():
        # ConvNeXt-T's stages and 7x7 depthwise kernels, one block a stage.
        cfg = convnext.CNBlockConfig
        stages = [cfg(96, 192, 1), cfg(192, 384, 1), cfg(384, 768, 1), cfg(768, None, 1)]
        return convnext.ConvNeXt(stages), image()

    def vit():
        # ViT-B/16's patches, width and heads, two of its twelve layers.
        model = vision_transformer.VisionTransformer(
            image_size=224, patch_size=16, num_layers=2, num_heads=12,
            hidden_dim=768, mlp_dim=3072)
        return model, image()

    def swin():
        # Swin-T's windows, widths and heads, two blocks (one shifted) a stage.
        model = swin_transformer.SwinTransformer(
            patch_size=[4, 4], embed_dim=96, depths=[2, 2, 2, 2],
            num_heads=[3, 6, 12, 24], window_size=[7, 7])
        return model, image()

    def text_encoder_layer():
        # BERT-base's layer as torch.nn writes it: 768 wide, 12 heads, 128 tokens.
        layer = torch.nn.TransformerEncoderLayer(
            d_model=768, nhead=12, dim_feedforward=3072, batch_first=True)
        return layer, (torch.randn(1, 128, 768),)

    def gpt2_block():
        # transformers' GPT-2 (scaled_dot_product_attention, causal), one layer.
        from transformers import GPT2Config, GPT2Model
        config = GPT2Config(n_layer=1, n_embd=768, n_head=12, n_positions=256,
                            vocab_size=2048)
        config._attn_implementation = "sdpa"
        model = GPT2Model(config)
        model.config.use_cache = False
        return Tokens(model), tokens(128, 2048)

    def llama_layer():
        # transformers' Llama at TinyLlama-1.1B's layer shape: GQA (32 query
        # heads, 4 key/value heads of 64), RoPE, RMSNorm, the gated MLP.
        from transformers import LlamaConfig, LlamaModel
        config = LlamaConfig(hidden_size=2048, intermediate_size=5632,
                             num_attention_heads=32, num_key_value_heads=4,
                             num_hidden_layers=1, vocab_size=2048,
                             max_position_embeddings=512)
        config._attn_implementation = "sdpa"
        model = LlamaModel(config)
        model.config.use_cache = False
        return Tokens(model), tokens(128, 2048)

    def unet_block():
        # diffusers' CrossAttnDownBlock2D as Stable Diffusion 1.5's first
        # block: GroupNorm(32), SiLU, 3x3 convolutions at 320 channels, a
        # transformer whose cross-attention reads 77 text tokens of 768; a
        # 32x32 latent.
        from diffusers.models.unets.unet_2d_blocks import CrossAttnDownBlock2D
        block = CrossAttnDownBlock2D(
            in_channels=320, out_channels=320, temb_channels=1280, num_layers=1,
            cross_attention_dim=768, num_attention_heads=8, add_downsample=False)
        inputs = (torch.randn(1, 320, 32, 32), torch.randn(1, 1280),
                  torch.randn(1, 77, 768))
        return UNetBlock(block), inputs

    class Tokens(torch.nn.Module):
        """A transformers model called on token ids, returning its last hidden state."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, ids):
            return self.model(input_ids=ids, use_cache=False).last_hidden_state

    class UNetBlock(torch.nn.Module):
        def __init__(self, block):
            super().__init__()
            self.block = block

        def forward(self, latent, temb, text):
            hidden, _ = self.block(latent, temb, encoder_hidden_states=text)
            return hidden

    return {
        "resnet18": ("residual CNN", "torchvision.models.resnet18",
                     lambda: (tv.resnet18(), image())),
        "resnet50": ("residual CNN, bottlenecks", "torchvision.models.resnet50",
                     lambda: (tv.resnet50(), image())),
        "mobilenet_v2": ("mobile CNN, depthwise", "torchvision.models.mobilenet_v2",
                         lambda: (tv.mobilenet_v2(), image())),
        "mobilenet_v3_small": ("mobile CNN, depthwise, squeeze-excite",
                               "torchvision.models.mobilenet_v3_small",
                               lambda: (tv.mobilenet_v3_small(), image())),
        "efficientnet_b0": ("mobile CNN, depthwise, squeeze-excite",
                            "torchvision.models.efficientnet_b0",
                            lambda: (tv.efficientnet_b0(), image())),
        "shufflenet_v2": ("mobile CNN, grouped, channel shuffle",
                          "torchvision.models.shufflenet_v2_x1_0",
                          lambda: (tv.shufflenet_v2_x1_0(), image())),
        "squeezenet": ("concatenating CNN", "torchvision.models.squeezenet1_1",
                       lambda: (tv.squeezenet1_1(), image())),
        "densenet121": ("concatenating CNN", "torchvision.models.densenet121",
                        lambda: (tv.densenet121(), image())),
        "convnext": ("large-kernel depthwise CNN",
                     "torchvision.models.convnext.ConvNeXt (ConvNeXt-T stages, 1 block each)",
                     convnext_small_depth),
        "vit_b16": ("vision transformer",
                    "torchvision.models.vision_transformer.VisionTransformer (ViT-B/16, 2 layers)",
                    vit),
        "swin": ("windowed vision transformer",
                 "torchvision.models.swin_transformer.SwinTransformer (Swin-T, 2 blocks a stage)",
                 swin),
        "text_encoder_layer": ("text encoder layer",
                               "torch.nn.TransformerEncoderLayer (BERT-base, 128 tokens)",
                               text_encoder_layer),
        "gpt2_block": ("causal decoder block (scaled_dot_product_attention)",
                       "transformers.GPT2Model (1 layer, 128 tokens)", gpt2_block),
        "llama_layer": ("GQA / RoPE decoder layer",
                        "transformers.LlamaModel (TinyLlama layer shape, 1 layer, 128 tokens)",
                        llama_layer),
        "unet_cross_attn_block": ("UNet block, GroupNorm and cross-attention over 77 tokens",
                                  "diffusers CrossAttnDownBlock2D (SD 1.5's first, 32x32 latent)",
                                  unet_block),
    }


def export_onnx(model, inputs, path):
    import torch
    try:
        torch.onnx.export(model, inputs, str(path), dynamo=True, optimize=True)
        return "dynamo"
    except Exception as error:  # the exporter's older path, as users fall back
        print(f"  dynamo export failed ({type(error).__name__}); TorchScript exporter",
              file=sys.stderr)
        torch.onnx.export(model, inputs, str(path), dynamo=False, opset_version=17)
        return "torchscript"


def import_onnx(onnx_path, mlir_path):
    deps = ROOT / ".deps"
    iree = sorted(deps.glob("iree-*"))[-1]
    onnx_pkg = sorted(deps.glob("onnx-*"))[-1]
    env = dict(os.environ, PYTHONPATH=f"{onnx_pkg}:{iree}")
    subprocess.run(["/usr/bin/python3", "-m", "iree.compiler.tools.import_onnx",
                    str(onnx_path), "-o", str(mlir_path)], check=True, env=env)


RESOURCES = re.compile(r"\{-#\s*dialect_resources:\s*\{\s*builtin:\s*\{(.*)\}\s*\}\s*#-\}\s*$", re.S)
BLOB = re.compile(r'^\s*([\w.$-]+|"[^"]*"):\s*"0x([0-9A-Fa-f]*)"\s*,?\s*$', re.M)
TYPED = re.compile(r"dense_resource<([\w.$-]+|\"[^\"]*\")>\s*:\s*tensor<([^>]*)>")


def strip_weights(text):
    """The import without its large float blobs, and what each one was."""
    import numpy as np
    match = RESOURCES.search(text)
    if not match:
        return text, {}
    types = {key: spec for key, spec in TYPED.findall(text)}
    kept, stripped = [], {}
    for key, hexdata in BLOB.findall(match.group(1)):
        data = bytes.fromhex(hexdata)
        element = types.get(key, "").split("x")[-1]
        float_type = {"f16": np.float16, "f32": np.float32, "bf16": None}.get(element)
        if len(data) <= KEEP_BYTES or element not in ("f16", "f32"):
            kept.append(f'      {key}: "0x{hexdata}"')
            continue
        values = np.frombuffer(data[4:], dtype=float_type).astype(np.float64)
        stripped[key] = {
            "type": types[key], "alignment": int.from_bytes(data[:4], "little"),
            "mean": float(values.mean()), "std": float(values.std())}
    body = text[:match.start()]
    if kept:
        body += ("{-#\n  dialect_resources: {\n    builtin: {\n" + ",\n".join(kept) +
                 "\n    }\n  }\n#-}\n")
    return body, stripped


def build(name, entry, dtype, out_dir, manifest):
    import torch
    what, source, make = entry
    torch.manual_seed(0)
    model, inputs = make()
    model.eval()
    torch_dtype = {"f16": torch.float16, "f32": torch.float32}[dtype]
    model = model.to(torch_dtype)
    inputs = tuple(x.to(torch_dtype) if x.is_floating_point() else x for x in inputs)
    with tempfile.TemporaryDirectory() as scratch:
        onnx_path = Path(scratch) / f"{name}.onnx"
        with torch.no_grad():
            exporter = export_onnx(model, inputs, onnx_path)
        imported = Path(scratch) / f"{name}.mlir"
        import_onnx(onnx_path, imported)
        text, stripped = strip_weights(imported.read_text())
    target = out_dir / f"{name}.{dtype}.mlir"
    header = (f"// {name} ({what}): {source}, random weights, {dtype}; exported by\n"
              f"// torch.onnx.export ({exporter}) and imported by iree-import-onnx. Its large\n"
              f"// float weights are taken out: examples/models/zoo/with_weights.py puts them\n"
              f"// back from a seed (zoo.json holds their statistics).\n")
    target.write_text(header + text)
    manifest[f"{name}.{dtype}"] = {
        "network": name, "kind": what, "source": source, "dtype": dtype,
        "exporter": exporter, "file": target.name,
        "parameters": int(sum(p.numel() for p in model.parameters())),
        "weights": stripped}
    print(f"{target.name}: {target.stat().st_size // 1024} KB, "
          f"{len(stripped)} weights taken out", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="networks to build (default: all)")
    parser.add_argument("--dtype", action="append", choices=["f16", "f32"])
    parser.add_argument("-o", "--out", type=Path, default=HERE)
    args = parser.parse_args()
    zoo = networks()
    names = args.names or list(zoo)
    manifest_path = args.out / "zoo.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    failures = []
    for name in names:
        for dtype in args.dtype or ["f16", "f32"]:
            print(f"{name} {dtype}", file=sys.stderr)
            try:
                build(name, zoo[name], dtype, args.out, manifest)
            except Exception as error:
                failures.append(f"{name} {dtype}: {type(error).__name__}: {error}")
                print(f"  FAILED: {failures[-1][:400]}", file=sys.stderr)
    manifest_path.write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")
    for failure in failures:
        print(failure[:2000], file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
