#!/usr/bin/env python3
"""What a user would otherwise get for the kernels of examples/models/ and the
kinds' examples: PyTorch's cuDNN convolutions, cuBLAS (batched) matmuls and
scaled_dot_product_attention, timed on the GPU with CUDA events (f16 in, the
median of back-to-back launches after a warm-up). Run on the GPU machine by
`scripts/gpu-check.sh`'s kinds bundle; prints one CSV row per kernel:

    kernel,shape,torch_us

Needs only torch. The shapes are the ones tilescope-cli compiles for the same
kernels (NHWC convolutions run as channels_last, as cuDNN runs them fastest).
"""
import csv
import sys

import torch
import torch.nn.functional as F


def timed_us(fn, launches=50):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(5):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(launches):
            fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1000.0 / launches)
    times.sort()
    return times[len(times) // 2]


def conv(n, h, w, c, f, k, stride, pad):
    x = torch.randn(n, c, h, w, device="cuda", dtype=torch.float16).to(
        memory_format=torch.channels_last)
    wt = torch.randn(f, c, k, k, device="cuda", dtype=torch.float16).to(
        memory_format=torch.channels_last)
    return lambda: F.conv2d(x, wt, stride=stride, padding=pad)


def bmm(b, m, n, k):
    x = torch.randn(b, m, k, device="cuda", dtype=torch.float16)
    y = torch.randn(b, k, n, device="cuda", dtype=torch.float16)
    return lambda: torch.bmm(x, y)


def mm(m, n, k):
    x = torch.randn(m, k, device="cuda", dtype=torch.float16)
    y = torch.randn(k, n, device="cuda", dtype=torch.float16)
    return lambda: x @ y


def sdpa(heads, seq, dim):
    q, k, v = (torch.randn(1, heads, seq, dim, device="cuda",
                           dtype=torch.float16) for _ in range(3))
    return lambda: F.scaled_dot_product_attention(q, k, v)


KERNELS = [
    # examples/cuda_sm_90/conv_3x3_f16: 16x66x66x256 input (padded), 3x3x256x256
    ("conv", "16x66x66x256 3x3x256x256 valid", conv(16, 66, 66, 256, 256, 3, 1, 0)),
    # examples/models/sdxl_unet_resblock.mlir (its padded inputs, valid convs)
    ("conv", "2x130x130x320 3x3x320x320 valid", conv(2, 130, 130, 320, 320, 3, 1, 0)),
    ("conv", "2x130x130x320 3x3x320x320 stride 2", conv(2, 130, 130, 320, 320, 3, 2, 0)),
    ("conv", "2x66x66x320 3x3x320x640 valid", conv(2, 66, 66, 320, 640, 3, 1, 0)),
    ("conv", "2x66x66x640 3x3x640x640 valid", conv(2, 66, 66, 640, 640, 3, 1, 0)),
    ("conv", "2x64x64x320 1x1x320x640", conv(2, 64, 64, 320, 640, 1, 1, 0)),
    # examples/cuda_sm_90/batch_matmul_f16
    ("batch_matmul", "32x1024x1024x128", bmm(32, 1024, 1024, 128)),
    # examples/models/llama3_8b_decoder_layer.mlir
    ("matmul", "2048x4096x4096", mm(2048, 4096, 4096)),
    ("matmul", "2048x14336x4096", mm(2048, 14336, 4096)),
    ("matmul", "2048x4096x14336", mm(2048, 4096, 14336)),
    ("attention", "32 heads x 2048 x 128", sdpa(32, 2048, 128)),
]


def main():
    torch.backends.cudnn.benchmark = True
    out = csv.writer(sys.stdout)
    out.writerow(["kernel", "shape", "torch_us"])
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__} "
          f"cudnn {torch.backends.cudnn.version()}", file=sys.stderr)
    for kind, shape, fn in KERNELS:
        try:
            out.writerow([kind, shape, f"{timed_us(fn):.2f}"])
        except RuntimeError as error:  # one kernel's failure is not the run's
            out.writerow([kind, shape, f"failed: {error}".replace(",", ";")])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
