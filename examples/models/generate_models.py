#!/usr/bin/env python3
"""Writes the model blocks in examples/models/ as linalg / linalg_ext MLIR.

    examples/models/generate_models.py

Real model shapes, no weights: every weight is a function argument, so a
block compiles, configures and runs on inputs Tilescope makes.

- llama3_8b_decoder_layer.mlir: one Llama-3-8B decoder layer at sequence
  2048 (batch 1): RMSNorm, Q/K/V/O projections 4096x4096, attention 32 heads
  x 128 (iree_linalg_ext.attention), RMSNorm, the gated MLP at 14336.
- sdxl_unet_resblock.mlir: SDXL UNet res blocks (NHWC, batch 2): GroupNorm
  (32 groups), SiLU and 3x3 convolutions at 320 channels and 128x128, a
  stride-2 3x3 downsample, then 320 -> 640 channels at 64x64 with a 1x1 skip.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent


class Builder:
    def __init__(self):
        self.lines = []
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return f"%{stem}{self.count}"

    def emit(self, text):
        self.lines.append("  " + text)


def tensor(shape, elem):
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{elem}>"


def amap(dims, results):
    return f"affine_map<({', '.join(dims)}) -> ({', '.join(results)})>"


def empty(b, shape, elem):
    name = b.fresh("empty")
    b.emit(f"{name} = tensor.empty() : {tensor(shape, elem)}")
    return name


def filled(b, shape, elem, value):
    zero = b.fresh("c")
    b.emit(f"{zero} = arith.constant {value} : {elem}")
    init = empty(b, shape, elem)
    name = b.fresh("fill")
    t = tensor(shape, elem)
    b.emit(f"{name} = linalg.fill ins({zero} : {elem}) outs({init} : {t}) -> {t}")
    return name


def linear(b, x, w, m, k, n):
    """x[m,k] @ w[n,k]^T in f32, back to f16."""
    acc = filled(b, [m, n], "f32", "0.0")
    out = b.fresh("mm")
    b.emit(f"{out} = linalg.matmul indexing_maps = [{amap(['m', 'n', 'k'], ['m', 'k'])}, "
           f"{amap(['m', 'n', 'k'], ['n', 'k'])}, {amap(['m', 'n', 'k'], ['m', 'n'])}] "
           f"ins({x}, {w} : {tensor([m, k], 'f16')}, {tensor([n, k], 'f16')}) "
           f"outs({acc} : {tensor([m, n], 'f32')}) -> {tensor([m, n], 'f32')}")
    return truncate(b, out, [m, n])


def elementwise(b, inputs, shape, body, out_elem="f16"):
    """A parallel generic over `shape`; inputs are (value, elem, dims)."""
    dims = [f"d{i}" for i in range(len(shape))]
    maps = [amap(dims, [dims[i] for i in d]) for _, _, d in inputs]
    maps.append(amap(dims, dims))
    init = empty(b, shape, out_elem)
    out = b.fresh("ew")
    ins = ", ".join(v for v, _, _ in inputs)
    types = ", ".join(tensor([shape[i] for i in d], e) for _, e, d in inputs)
    args = ", ".join(f"%a{i}: {e}" for i, (_, e, _) in enumerate(inputs))
    iterators = ", ".join(['"parallel"'] * len(shape))
    b.emit(f"{out} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
           f"iterator_types = [{iterators}]}} "
           f"ins({ins} : {types}) outs({init} : {tensor(shape, out_elem)}) {{")
    b.emit(f"^bb0({args}, %out: {out_elem}):")
    for line in body:
        b.emit("  " + line)
    b.emit(f"}} -> {tensor(shape, out_elem)}")
    return out


def truncate(b, x, shape):
    return elementwise(b, [(x, "f32", list(range(len(shape))))], shape,
                       ["%t = arith.truncf %a0 : f32 to f16", "linalg.yield %t : f16"])


def add(b, x, y, shape):
    r = list(range(len(shape)))
    return elementwise(b, [(x, "f16", r), (y, "f16", r)], shape,
                       ["%s = arith.addf %a0, %a1 : f16", "linalg.yield %s : f16"])


def rmsnorm(b, x, weight, rows, cols):
    sums = filled(b, [rows], "f32", "0.0")
    sq = b.fresh("sumsq")
    b.emit(f"{sq} = linalg.generic {{indexing_maps = [{amap(['i', 'j'], ['i', 'j'])}, "
           f"{amap(['i', 'j'], ['i'])}], iterator_types = [\"parallel\", \"reduction\"]}} "
           f"ins({x} : {tensor([rows, cols], 'f16')}) outs({sums} : {tensor([rows], 'f32')}) {{")
    b.emit("^bb0(%a: f16, %acc: f32):")
    b.emit("  %e = arith.extf %a : f16 to f32")
    b.emit("  %m = arith.mulf %e, %e : f32")
    b.emit("  %s = arith.addf %m, %acc : f32")
    b.emit("  linalg.yield %s : f32")
    b.emit(f"}} -> {tensor([rows], 'f32')}")
    return elementwise(b, [(x, "f16", [0, 1]), (sq, "f32", [0]), (weight, "f16", [1])],
                       [rows, cols], [
                           f"%n = arith.constant {float(cols)} : f32",
                           "%eps = arith.constant 1.0e-05 : f32",
                           "%mean = arith.divf %a1, %n : f32",
                           "%v = arith.addf %mean, %eps : f32",
                           "%r = math.rsqrt %v : f32",
                           "%e = arith.extf %a0 : f16 to f32",
                           "%y = arith.mulf %e, %r : f32",
                           "%g = arith.extf %a2 : f16 to f32",
                           "%z = arith.mulf %y, %g : f32",
                           "%t = arith.truncf %z : f32 to f16",
                           "linalg.yield %t : f16"])


def to_heads(b, x, seq, heads, dim):
    expanded = b.fresh("heads")
    b.emit(f"{expanded} = tensor.expand_shape {x} [[0], [1, 2]] output_shape [{seq}, {heads}, {dim}] "
           f": {tensor([seq, heads * dim], 'f16')} into {tensor([seq, heads, dim], 'f16')}")
    init = empty(b, [heads, seq, dim], "f16")
    out = b.fresh("perm")
    b.emit(f"{out} = linalg.transpose ins({expanded} : {tensor([seq, heads, dim], 'f16')}) "
           f"outs({init} : {tensor([heads, seq, dim], 'f16')}) permutation = [1, 0, 2]")
    return out


def from_heads(b, x, seq, heads, dim):
    init = empty(b, [seq, heads, dim], "f16")
    out = b.fresh("perm")
    b.emit(f"{out} = linalg.transpose ins({x} : {tensor([heads, seq, dim], 'f16')}) "
           f"outs({init} : {tensor([seq, heads, dim], 'f16')}) permutation = [1, 0, 2]")
    collapsed = b.fresh("merged")
    b.emit(f"{collapsed} = tensor.collapse_shape {out} [[0], [1, 2]] "
           f": {tensor([seq, heads, dim], 'f16')} into {tensor([seq, heads * dim], 'f16')}")
    return collapsed


def attention(b, q, k, v, heads, seq, dim):
    scale = b.fresh("scale")
    b.emit(f"{scale} = arith.constant {1.0 / dim ** 0.5:.8f} : f16")
    init = empty(b, [heads, seq, dim], "f16")
    out = b.fresh("attn")
    d = ["b", "m", "k1", "k2", "n"]
    maps = [amap(d, ["b", "m", "k1"]), amap(d, ["b", "k2", "k1"]), amap(d, ["b", "k2", "n"]),
            amap(d, []), amap(d, ["b", "m", "n"])]
    t = tensor([heads, seq, dim], "f16")
    b.emit(f"{out} = iree_linalg_ext.attention <{{indexing_maps = [{', '.join(maps)}]}}> "
           f"ins({q}, {k}, {v}, {scale} : {t}, {t}, {t}, f16) outs({init} : {t}) {{")
    b.emit("^bb0(%score: f32):")
    b.emit("  iree_linalg_ext.yield %score : f32")
    b.emit(f"}} -> {t}")
    return out


def decoder_layer():
    seq, hidden, heads, dim, ffn = 2048, 4096, 32, 128, 14336
    b = Builder()
    x = "%x"
    xn = rmsnorm(b, x, "%norm1", seq, hidden)
    q = to_heads(b, linear(b, xn, "%wq", seq, hidden, hidden), seq, heads, dim)
    k = to_heads(b, linear(b, xn, "%wk", seq, hidden, hidden), seq, heads, dim)
    v = to_heads(b, linear(b, xn, "%wv", seq, hidden, hidden), seq, heads, dim)
    a = from_heads(b, attention(b, q, k, v, heads, seq, dim), seq, heads, dim)
    h = add(b, x, linear(b, a, "%wo", seq, hidden, hidden), [seq, hidden])
    hn = rmsnorm(b, h, "%norm2", seq, hidden)
    gate = linear(b, hn, "%wgate", seq, hidden, ffn)
    up = linear(b, hn, "%wup", seq, hidden, ffn)
    act = elementwise(b, [(gate, "f16", [0, 1]), (up, "f16", [0, 1])], [seq, ffn], [
        "%g = arith.extf %a0 : f16 to f32",
        "%u = arith.extf %a1 : f16 to f32",
        "%one = arith.constant 1.0 : f32",
        "%neg = arith.negf %g : f32",
        "%e = math.exp %neg : f32",
        "%d = arith.addf %one, %e : f32",
        "%s = arith.divf %g, %d : f32",
        "%y = arith.mulf %s, %u : f32",
        "%t = arith.truncf %y : f32 to f16",
        "linalg.yield %t : f16"])
    out = add(b, h, linear(b, act, "%wdown", seq, ffn, hidden), [seq, hidden])
    w = tensor([hidden, hidden], "f16")
    args = [f"%x: {tensor([seq, hidden], 'f16')}", f"%norm1: {tensor([hidden], 'f16')}",
            f"%wq: {w}", f"%wk: {w}", f"%wv: {w}", f"%wo: {w}",
            f"%norm2: {tensor([hidden], 'f16')}", f"%wgate: {tensor([ffn, hidden], 'f16')}",
            f"%wup: {tensor([ffn, hidden], 'f16')}", f"%wdown: {tensor([hidden, ffn], 'f16')}"]
    header = [
        "// One Llama-3-8B decoder layer at sequence 2048, batch 1 (generate_models.py):",
        "// RMSNorm, Q/K/V/O projections 4096x4096, attention 32 heads x 128, RMSNorm,",
        "// the gated MLP (SiLU) at 14336. f16 weights and activations, f32 accumulation;",
        "// the weights are arguments.",
        f"func.func @decoder_layer({', '.join(args)}) -> {tensor([seq, hidden], 'f16')} {{"]
    return "\n".join(header + b.lines + [f"  return {out} : {tensor([seq, hidden], 'f16')}", "}", ""])


def group_norm_silu(b, x, gamma, beta, n, h, w, c, groups=32):
    per = c // groups
    shape5 = [n, h, w, groups, per]
    grouped = b.fresh("grouped")
    b.emit(f"{grouped} = tensor.expand_shape {x} [[0], [1], [2], [3, 4]] "
           f"output_shape [{n}, {h}, {w}, {groups}, {per}] : {tensor([n, h, w, c], 'f16')} "
           f"into {tensor(shape5, 'f16')}")
    d = ["n", "h", "w", "g", "c"]
    stats = []
    for name, square in (("sum", False), ("sumsq", True)):
        init = filled(b, [n, groups], "f32", "0.0")
        out = b.fresh(name)
        b.emit(f"{out} = linalg.generic {{indexing_maps = [{amap(d, d)}, {amap(d, ['n', 'g'])}], "
               f"iterator_types = [\"parallel\", \"reduction\", \"reduction\", \"parallel\", \"reduction\"]}} "
               f"ins({grouped} : {tensor(shape5, 'f16')}) outs({init} : {tensor([n, groups], 'f32')}) {{")
        b.emit("^bb0(%a: f16, %acc: f32):")
        b.emit("  %e = arith.extf %a : f16 to f32")
        if square:
            b.emit("  %m = arith.mulf %e, %e : f32")
            b.emit("  %s = arith.addf %m, %acc : f32")
        else:
            b.emit("  %s = arith.addf %e, %acc : f32")
        b.emit("  linalg.yield %s : f32")
        b.emit(f"}} -> {tensor([n, groups], 'f32')}")
        stats.append(out)
    count = float(h * w * per)
    normed = elementwise(b, [(grouped, "f16", [0, 1, 2, 3, 4]), (stats[0], "f32", [0, 3]),
                             (stats[1], "f32", [0, 3])], shape5, [
        f"%cnt = arith.constant {count} : f32",
        "%eps = arith.constant 1.0e-05 : f32",
        "%mean = arith.divf %a1, %cnt : f32",
        "%ex2 = arith.divf %a2, %cnt : f32",
        "%m2 = arith.mulf %mean, %mean : f32",
        "%var = arith.subf %ex2, %m2 : f32",
        "%v = arith.addf %var, %eps : f32",
        "%r = math.rsqrt %v : f32",
        "%e = arith.extf %a0 : f16 to f32",
        "%c = arith.subf %e, %mean : f32",
        "%y = arith.mulf %c, %r : f32",
        "%t = arith.truncf %y : f32 to f16",
        "linalg.yield %t : f16"])
    flat = b.fresh("flat")
    b.emit(f"{flat} = tensor.collapse_shape {normed} [[0], [1], [2], [3, 4]] "
           f": {tensor(shape5, 'f16')} into {tensor([n, h, w, c], 'f16')}")
    return elementwise(b, [(flat, "f16", [0, 1, 2, 3]), (gamma, "f16", [3]), (beta, "f16", [3])],
                       [n, h, w, c], [
        "%xe = arith.extf %a0 : f16 to f32",
        "%g = arith.extf %a1 : f16 to f32",
        "%bt = arith.extf %a2 : f16 to f32",
        "%s = arith.mulf %xe, %g : f32",
        "%y = arith.addf %s, %bt : f32",
        "%one = arith.constant 1.0 : f32",
        "%neg = arith.negf %y : f32",
        "%e = math.exp %neg : f32",
        "%d = arith.addf %one, %e : f32",
        "%z = arith.divf %y, %d : f32",
        "%t = arith.truncf %z : f32 to f16",
        "linalg.yield %t : f16"])


def conv(b, x, filt, n, h, w, c, f, k, stride=1):
    pad = k // 2
    src = x
    hp, wp = h + 2 * pad, w + 2 * pad
    if pad:
        zero = b.fresh("c")
        b.emit(f"{zero} = arith.constant 0.0 : f16")
        src = b.fresh("pad")
        b.emit(f"{src} = tensor.pad {x} low[0, {pad}, {pad}, 0] high[0, {pad}, {pad}, 0] {{")
        b.emit("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
        b.emit(f"  tensor.yield {zero} : f16")
        b.emit(f"}} : {tensor([n, h, w, c], 'f16')} to {tensor([n, hp, wp, c], 'f16')}")
    oh, ow = (hp - k) // stride + 1, (wp - k) // stride + 1
    acc = filled(b, [n, oh, ow, f], "f32", "0.0")
    out = b.fresh("conv")
    b.emit(f"{out} = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, "
           f"strides = dense<{stride}> : tensor<2xi64>}} ins({src}, {filt} : "
           f"{tensor([n, hp, wp, c], 'f16')}, {tensor([k, k, c, f], 'f16')}) outs({acc} : "
           f"{tensor([n, oh, ow, f], 'f32')}) -> {tensor([n, oh, ow, f], 'f32')}")
    return truncate(b, out, [n, oh, ow, f]), oh, ow


def resblock(b, x, names, n, h, w, c, f):
    a = group_norm_silu(b, x, f"%{names}_gn1_g", f"%{names}_gn1_b", n, h, w, c)
    a, _, _ = conv(b, a, f"%{names}_conv1", n, h, w, c, f, 3)
    a = group_norm_silu(b, a, f"%{names}_gn2_g", f"%{names}_gn2_b", n, h, w, f)
    a, _, _ = conv(b, a, f"%{names}_conv2", n, h, w, f, f, 3)
    skip = x
    if c != f:
        skip, _, _ = conv(b, x, f"%{names}_skip", n, h, w, c, f, 1)
    return add(b, skip, a, [n, h, w, f])


def unet_resblock():
    n, h, w, c, f = 2, 128, 128, 320, 640
    b = Builder()
    r1 = resblock(b, "%x", "r1", n, h, w, c, c)
    down, oh, ow = conv(b, r1, "%down", n, h, w, c, c, 3, stride=2)
    out = resblock(b, down, "r2", n, oh, ow, c, f)
    args = [f"%x: {tensor([n, h, w, c], 'f16')}"]
    for name, ch in (("r1_gn1", c), ("r1_gn2", c)):
        args += [f"%{name}_g: {tensor([ch], 'f16')}", f"%{name}_b: {tensor([ch], 'f16')}"]
    args += [f"%r1_conv1: {tensor([3, 3, c, c], 'f16')}", f"%r1_conv2: {tensor([3, 3, c, c], 'f16')}",
             f"%down: {tensor([3, 3, c, c], 'f16')}"]
    for name, ch in (("r2_gn1", c), ("r2_gn2", f)):
        args += [f"%{name}_g: {tensor([ch], 'f16')}", f"%{name}_b: {tensor([ch], 'f16')}"]
    args += [f"%r2_conv1: {tensor([3, 3, c, f], 'f16')}", f"%r2_conv2: {tensor([3, 3, f, f], 'f16')}",
             f"%r2_skip: {tensor([1, 1, c, f], 'f16')}"]
    result = tensor([n, oh, ow, f], "f16")
    header = [
        "// SDXL UNet res blocks, NHWC, batch 2 (generate_models.py): GroupNorm (32",
        "// groups) + SiLU and 3x3 convolutions at 320 channels and 128x128, a stride-2",
        "// 3x3 downsample, then 320 -> 640 channels at 64x64 with a 1x1 skip. f16",
        "// weights and activations, f32 accumulation; the weights are arguments.",
        f"func.func @unet_resblock({', '.join(args)}) -> {result} {{"]
    return "\n".join(header + b.lines + [f"  return {out} : {result}", "}", ""])


if __name__ == "__main__":
    (HERE / "llama3_8b_decoder_layer.mlir").write_text(decoder_layer())
    (HERE / "sdxl_unet_resblock.mlir").write_text(unet_resblock())
    print("examples/models/llama3_8b_decoder_layer.mlir")
    print("examples/models/sdxl_unet_resblock.mlir")
