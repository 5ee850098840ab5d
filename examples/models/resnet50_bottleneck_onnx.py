#!/usr/bin/env python3
"""Builds a ResNet-50 block as an ONNX model with the `onnx` package.

    PYTHONPATH=.deps/onnx-1.17.0 examples/models/resnet50_bottleneck_onnx.py OUT.onnx

Then IREE's own importer (in the pinned compiler wheel) makes the MLIR that
Tilescope opens, configures and tunes as it is:

    PYTHONPATH=.deps/onnx-1.17.0:.deps/iree-3.13.0 python3 -m \\
        iree.compiler.tools.import_onnx OUT.onnx -o resnet50_bottleneck_onnx.mlir

examples/models/resnet50_bottleneck_onnx.mlir is that import, and the model
blocks' test (tests/e2e/tst_model_blocks.cpp) builds, imports and compares it.

ResNet-50's first bottleneck at ImageNet shapes (batch 1, NCHW, f32, as ONNX
exports hold it): 1x1 convolution 256 -> 64, 3x3 convolution 64 -> 64, 1x1
convolution 64 -> 256, each with its bias and ReLU, the residual add; then
the classifier head on its output: global average pool, the 256 -> 1000
fully connected layer (Gemm) and a softmax. Every weight is a graph input,
so the model holds no data and runs on inputs Tilescope makes.
"""

import sys

import onnx
from onnx import TensorProto, helper


def value(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def build():
    batch, channels, size, width = 1, 256, 56, 64
    classes = 1000
    inputs = [
        value("x", [batch, channels, size, size]),
        value("reduce_w", [width, channels, 1, 1]),
        value("reduce_b", [width]),
        value("conv_w", [width, width, 3, 3]),
        value("conv_b", [width]),
        value("expand_w", [channels, width, 1, 1]),
        value("expand_b", [channels]),
        value("fc_w", [classes, channels]),
        value("fc_b", [classes]),
    ]
    node = helper.make_node
    nodes = [
        node("Conv", ["x", "reduce_w", "reduce_b"], ["reduced"]),
        node("Relu", ["reduced"], ["reduced_relu"]),
        node("Conv", ["reduced_relu", "conv_w", "conv_b"], ["conv"],
             pads=[1, 1, 1, 1]),
        node("Relu", ["conv"], ["conv_relu"]),
        node("Conv", ["conv_relu", "expand_w", "expand_b"], ["expanded"]),
        node("Add", ["expanded", "x"], ["residual"]),
        node("Relu", ["residual"], ["block"]),
        node("GlobalAveragePool", ["block"], ["pooled"]),
        node("Flatten", ["pooled"], ["features"]),
        node("Gemm", ["features", "fc_w", "fc_b"], ["logits"], transB=1),
        node("Softmax", ["logits"], ["probabilities"], axis=-1),
    ]
    graph = helper.make_graph(nodes, "resnet50_bottleneck", inputs,
                              [value("probabilities", [batch, classes])])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="tilescope")
    onnx.checker.check_model(model, full_check=True)
    return model


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    onnx.save(build(), sys.argv[1])


if __name__ == "__main__":
    main()
